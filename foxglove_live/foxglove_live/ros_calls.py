# SPDX-License-Identifier: Apache-2.0
"""
ROS service calls on behalf of Foxglove clients, each bounded by a timeout.

The SDK runs parameter and service requests on its own worker threads; they wait here for
the answer. The clients live on a hidden helper node spun by its own executor thread, so
the calls neither depend on how the server's node is spun nor delay its topic callbacks,
and a node that never answers costs a request one timeout, never the server.
"""

import threading
from typing import Any, Callable, Dict, List, Sequence, Tuple

import rclpy
from rclpy.executors import SingleThreadedExecutor
from rclpy.qos import qos_profile_parameter_events


class CallTimeout(TimeoutError):
    """A service did not answer within the timeout."""


class RosCalls:
    """Service clients on a hidden helper node with its own executor thread."""

    def __init__(self, name: str = '_foxglove_server_calls') -> None:
        """Create the helper node `name` (hidden: leading _) and start spinning it."""
        self.node = rclpy.create_node(name, start_parameter_services=False,
                                      enable_rosout=False)
        self._clients: Dict[Tuple[str, Any], Any] = {}
        self._lock = threading.Lock()
        self._executor = SingleThreadedExecutor()
        self._executor.add_node(self.node)
        self._running = True
        self._thread = threading.Thread(target=self._spin, name='foxglove_ros_calls',
                                        daemon=True)
        self._thread.start()

    def _spin(self) -> None:
        while self._running and rclpy.ok():
            try:
                self._executor.spin_once(timeout_sec=0.1)
            except Exception:   # context shut down under us at exit
                if not self._running or not rclpy.ok():
                    return
                raise

    def client(self, srv_type: Any, name: str) -> Any:
        """Return the (cached) client of service `name`."""
        key = (name, srv_type)
        with self._lock:
            client = self._clients.get(key)
            if client is None:
                client = self._clients[key] = self.node.create_client(srv_type, name)
            return client

    def call(self, srv_type: Any, name: str, request: Any, timeout: float) -> Any:
        """Return the response of `name`, or raise CallTimeout after `timeout` seconds."""
        client = self.client(srv_type, name)
        done = threading.Event()
        if not client.wait_for_service(timeout_sec=timeout):
            raise CallTimeout(f'{name}: no such service (waited {timeout:g} s)')
        future = client.call_async(request)
        future.add_done_callback(lambda _: done.set())
        if not done.wait(timeout):
            client.remove_pending_request(future)
            raise CallTimeout(f'{name}: no answer within {timeout:g} s')
        return future.result()

    def call_many(self, calls: Sequence[Tuple[Any, str, Any]],
                  timeout: float) -> List[Any]:
        """
        Send every (srv_type, name, request) at once; wait at most `timeout` for all.

        Returns one response or exception per call, in order: one slow service delays the
        batch by the timeout, not by the timeout times the number of services.
        """
        results: List[Any] = [None] * len(calls)
        threads = []
        for i, (srv_type, name, request) in enumerate(calls):
            def run(i: int = i, srv_type: Any = srv_type, name: str = name,
                    request: Any = request) -> None:
                try:
                    results[i] = self.call(srv_type, name, request, timeout)
                except Exception as exc:    # CallTimeout, or the service went away
                    results[i] = exc
            thread = threading.Thread(target=run, daemon=True)
            thread.start()
            threads.append(thread)
        for thread in threads:
            thread.join(2 * timeout + 1.0)
        return results

    def subscribe_parameter_events(self, callback: Callable[[Any], None]) -> Any:
        """Call `callback` with every rcl_interfaces/ParameterEvent."""
        from rcl_interfaces.msg import ParameterEvent
        return self.node.create_subscription(ParameterEvent, '/parameter_events', callback,
                                             qos_profile_parameter_events)

    def close(self) -> None:
        """Stop the executor thread and destroy the helper node."""
        self._running = False
        self._thread.join(2.0)
        self._executor.shutdown(timeout_sec=1.0)
        self.node.destroy_node()
