# SPDX-License-Identifier: Apache-2.0
"""
A live subscriber for tests and benchmarks: it keeps what arrives on a set of topics.

It runs in its own rclpy context with an EventsExecutor spun (with a timeout) on a thread of
its own, so a test can start it beside anything else and read what arrived at any time.
"""

import os
import threading
import time
from typing import Any, Callable, Collection, Dict, List, Mapping, Optional, Tuple


class Probe:
    """
    Subscribes to `topics` ({name: generated message class}) and keeps what arrives.

    `records[topic]` is a list of (receive time ns, message or raw bytes). The topics named in
    `reliable` are subscribed RELIABLE, the others BEST_EFFORT (which matches any publisher,
    but may lose samples a reliable subscription would have had retransmitted): the caller
    knows the QoS its publishers offer. `rt_priority` > 0 runs the probe's DDS and spin
    threads SCHED_FIFO at that priority (when the process may), the caller's thread is
    restored.
    """

    def __init__(self, topics: Mapping[str, Any], raw: bool = False, depth: int = 1000,
                 rt_priority: int = 0, reliable: Collection[str] = ()) -> None:
        import rclpy
        from rclpy.context import Context
        from rclpy.experimental.events_executor import EventsExecutor
        from rclpy.qos import QoSProfile, ReliabilityPolicy

        previous = None
        if rt_priority:
            # Threads inherit the policy of their creator: the DDS threads of this probe's
            # participant and its spin thread run SCHED_FIFO, the caller is restored below.
            try:
                previous = (os.sched_getscheduler(0), os.sched_getparam(0))
                os.sched_setscheduler(0, os.SCHED_FIFO, os.sched_param(rt_priority))
            except OSError:
                previous = None
        self.context = Context()
        self.context.init()
        # Any: rclpy's own annotations differ between the distros (Jazzy's are partial).
        self.node: Any = rclpy.create_node('test_probe', context=self.context,
                                           start_parameter_services=False)
        self.lock = threading.Lock()
        self.records: Dict[str, List[Tuple[int, Any]]] = {t: [] for t in topics}
        for topic, cls in topics.items():
            reliability = ReliabilityPolicy.RELIABLE if topic in reliable \
                else ReliabilityPolicy.BEST_EFFORT
            profile = QoSProfile(  # type: ignore[no-untyped-call, unused-ignore]
                depth=depth, reliability=reliability)
            self.node.create_subscription(cls, topic, self._callback(topic), profile, raw=raw)
        self.executor = EventsExecutor(context=self.context)
        self.executor.add_node(self.node)
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._spin, daemon=True)
        self._thread.start()
        if previous is not None:
            os.sched_setscheduler(0, *previous)

    def _callback(self, topic: str) -> Callable[[Any], None]:
        rec = self.records[topic]

        def keep(msg: Any) -> None:
            t = time.time_ns()
            with self.lock:
                rec.append((t, msg))
        return keep

    def _spin(self) -> None:
        while not self._stop.is_set():
            self.executor.spin_once(timeout_sec=0.05)

    def clear(self) -> None:
        """Forget what arrived so far; what arrives from now on is kept."""
        with self.lock:
            for rec in self.records.values():
                rec.clear()

    def count(self, topic: str) -> int:
        """Return how many samples of `topic` are kept now."""
        with self.lock:
            return len(self.records[topic])

    def settle(self, quiet: float = 0.5, timeout: float = 15.0) -> bool:
        """Wait until nothing arrived for `quiet` s: a lagging probe has taken its backlog."""
        deadline = time.monotonic() + timeout
        last: Optional[int] = None
        while time.monotonic() < deadline:
            with self.lock:
                now = sum(len(r) for r in self.records.values())
            if now == last:
                return True
            last = now
            time.sleep(quiet)
        return False

    def close(self) -> None:
        """Stop the spin thread and release the node and its context."""
        self._stop.set()
        self._thread.join(2.0)
        self.executor.shutdown(timeout_sec=1.0)
        self.node.destroy_node()
        self.context.try_shutdown()
