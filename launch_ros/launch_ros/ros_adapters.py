# SPDX-License-Identifier: Apache-2.0
"""
One rclpy node per launch, spun in a thread of its own: what launch_ros actions talk ROS with.

``get_ros_adapter(context)`` starts it the first time an action asks (LifecycleNode); the
Shutdown of the launch stops it, and launch waits until its node is destroyed. The node
lives in an rclpy context of its own (no signal handlers), so the launch's SIGINT handling
and any rclpy use of the launch file are left alone.
"""

import os
import threading
from typing import Any, List, Optional, Text

from launch.event_handlers import OnShutdown

_LOCAL_NAME = 'launch_ros_adapter'


class ROSAdapter:
    """An rclpy context, node and executor, spun in a daemon thread until ``shutdown()``."""

    def __init__(self, *, argv: Optional[List[Text]] = None, autostart: bool = True) -> None:
        """Create the adapter; start it now unless ``autostart`` is False."""
        self.__argv = list(argv) if argv is not None else []
        self.__ros_context: Any = None
        self.__ros_node: Any = None
        self.__ros_executor: Any = None
        self.__thread: Optional[threading.Thread] = None
        self.__stop = threading.Event()
        self.__finished = threading.Event()
        self.__on_finished: List[Any] = []
        self.__lock = threading.Lock()
        if autostart:
            self.start()

    def start(self) -> None:
        """Create the node and start spinning it (once)."""
        if self.__thread is not None:
            raise RuntimeError('ROSAdapter already started')
        import rclpy
        from rclpy.executors import SingleThreadedExecutor
        from rclpy.signals import SignalHandlerOptions
        self.__ros_context = rclpy.Context()
        rclpy.init(args=self.__argv, context=self.__ros_context,
                   signal_handler_options=SignalHandlerOptions.NO)
        self.__ros_node = rclpy.create_node(
            f'launch_ros_{os.getpid()}', context=self.__ros_context,
            start_parameter_services=False)
        self.__ros_executor = SingleThreadedExecutor(context=self.__ros_context)
        self.__ros_executor.add_node(self.__ros_node)
        self.__thread = threading.Thread(target=self.__spin, name='launch_ros_adapter',
                                         daemon=True)
        self.__thread.start()

    def __spin(self) -> None:
        try:
            while not self.__stop.is_set() and self.__ros_context.ok():
                self.__ros_executor.spin_once(timeout_sec=0.05)
        finally:
            self.__ros_executor.shutdown()
            self.__ros_node.destroy_node()
            self.__ros_context.try_shutdown()
            with self.__lock:
                self.__finished.set()
                callbacks, self.__on_finished = self.__on_finished, []
            for callback in callbacks:
                callback()

    def shutdown(self) -> None:
        """Stop spinning; the thread destroys the node within 0.05 s (does not wait)."""
        self.__stop.set()

    def add_finished_callback(self, callback: Any) -> None:
        """Call ``callback()`` (from the adapter's thread, or now) once the node is gone."""
        with self.__lock:
            if not self.__finished.is_set():
                self.__on_finished.append(callback)
                return
        callback()

    def join(self, timeout: Optional[float] = None) -> None:
        """Wait for the thread to end (after ``shutdown()``)."""
        if self.__thread is not None:
            self.__thread.join(timeout)

    @property
    def argv(self) -> List[Text]:
        """Return the ROS arguments of the adapter's context."""
        return self.__argv

    @property
    def ros_context(self) -> Any:
        """Return the rclpy context."""
        return self.__ros_context

    @property
    def ros_node(self) -> Any:
        """Return the rclpy node."""
        return self.__ros_node

    @property
    def ros_executor(self) -> Any:
        """Return the executor spinning the node."""
        return self.__ros_executor


def get_ros_adapter(context: Any) -> ROSAdapter:
    """
    Return the launch's ROSAdapter, started the first time.

    The launch's Shutdown stops it; launch waits (a completion future) until the adapter's
    node is destroyed.
    """
    found = getattr(context.locals, _LOCAL_NAME, None)
    if isinstance(found, ROSAdapter):
        return found
    adapter = ROSAdapter()
    context.extend_globals({_LOCAL_NAME: adapter})
    loop = context.asyncio_loop

    def on_shutdown(event: Any, context: Any) -> None:
        adapter.shutdown()
        if loop is None or loop.is_closed():
            return
        finished = loop.create_future()

        def done() -> None:
            if not finished.done():
                finished.set_result(None)

        def from_thread() -> None:
            try:
                loop.call_soon_threadsafe(done)
            except RuntimeError:     # the loop is closed already: nobody waits
                pass
        context.add_completion_future(finished)
        adapter.add_finished_callback(from_thread)

    context.register_event_handler(OnShutdown(on_shutdown=on_shutdown))
    return adapter


def get_ros_node(context: Any) -> Any:
    """Return the rclpy node of the launch's ROSAdapter (started the first time)."""
    return get_ros_adapter(context).ros_node
