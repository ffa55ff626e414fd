# SPDX-License-Identifier: Apache-2.0
"""
What the HB50 nodes share: stamp clock, steady timers, status reporting, their main().

run() is the main() of every HB50 executable: node_runtime's runner with the HB50 executor
(HB50_EXECUTOR) and the 500 Hz loop of the loop_mode-loop nodes.

HB50-only (hb50_commons/Status, the /hb50 topics); the vendor-neutral part of running a node
(init, stop, spin, teardown, exit codes) is node_runtime.runner.
"""

import os
import threading
import time
from typing import Any, Callable, List, Optional, Sequence, Tuple

from builtin_interfaces.msg import Time
from hb50_commons.msg import Status
from node_runtime import heap, runner, stop
from node_runtime.loop import DeadlineLoop
from rclpy.clock import Clock, ClockType
from rclpy.executors import MultiThreadedExecutor, SingleThreadedExecutor
from rclpy.parameter import Parameter

from . import levels, qos, topics
from .reporting import bound, ReportLimiter


class StampClock:
    """
    The time a node stamps its messages with: wall clock, or the node's clock with use_sim_time.

    Without use_sim_time (the default) the stamps are time.time_ns(), much cheaper than
    node.get_clock().now() (the 500 Hz path). With use_sim_time:=true they are the node's ROS
    clock, which follows /clock (0 until the first /clock message). A later set of
    use_sim_time switches between the two.
    """

    def __init__(self, node: Any) -> None:
        self._clock = node.get_clock()
        self.sim = node.get_parameter('use_sim_time').value is True
        node.add_post_set_parameters_callback(self._on_set)

    def _on_set(self, parameters: List[Any]) -> None:
        for p in parameters:
            if p.name == 'use_sim_time' and p.type_ == Parameter.Type.BOOL:
                self.sim = p.value

    def now_ns(self) -> int:
        """Return the current stamp time in nanoseconds."""
        if self.sim:
            ns: int = self._clock.now().nanoseconds
            return ns
        return time.time_ns()

    def stamp(self) -> Any:
        """Return the current stamp time as a builtin_interfaces/Time."""
        sec, nanosec = divmod(self.now_ns(), 1_000_000_000)
        return Time(sec=sec, nanosec=nanosec)


def steady_timer(node: Any, period: float, callback: Callable[[], None]) -> Any:
    """
    Return a timer of `node` on the steady clock.

    Heartbeats, the heartbeat checks, the loop in timer mode and live_view's screen run in
    real time whatever use_sim_time says: a paused or absent /clock must not stop them.
    """
    return node.create_timer(period, callback, clock=Clock(clock_type=ClockType.STEADY_TIME))


def set_stamp(stamp: Any, ns: int) -> None:
    """Write wall-clock nanoseconds into an existing builtin_interfaces/Time in place."""
    stamp.sec, stamp.nanosec = divmod(ns, 1_000_000_000)


def stamp_to_ns(stamp: Any) -> int:
    """Return the nanoseconds of a builtin_interfaces/Time."""
    ns: int = stamp.sec * 1_000_000_000 + stamp.nanosec
    return ns


def publish_guarded(node: Any, publisher: Any, msg: Any) -> bool:
    """
    Publish `msg` unless the node is shutting down.

    A publish that loses the race against the shutdown (context or publisher already
    invalid) is dropped; any other error raises.
    """
    if not node.context.ok():
        return False
    try:
        publisher.publish(msg)
    except Exception:   # noqa: B902 - only swallowed when the shutdown caused it
        if node.context.ok() and not stop.requested():
            raise
        return False
    return True


class StatusReporter:
    """
    Publishes events on status and level-OK heartbeats on heartbeat (/hb50/... by default).

    Every event text is bounded (reporting.bound) and each reason rate-limited
    (reporting.ReportLimiter, one report per reason and `report_period` s) before it becomes
    a log line and a Status message.
    """

    def __init__(self, node: Any, heartbeat_rate: float, report_period: float = 1.0) -> None:
        self.node = node
        self.name: str = node.get_name()
        self.stamps: StampClock = getattr(node, 'stamps', None) or StampClock(node)
        self.status_pub = node.create_publisher(Status, topics.STATUS, qos.RELIABLE)
        self.heartbeat_pub = node.create_publisher(Status, topics.HEARTBEAT, qos.RELIABLE)
        self.timer = steady_timer(node, 1.0 / heartbeat_rate, self.heartbeat)
        self.limiter = ReportLimiter(report_period)
        self._lock = threading.Lock()   # reports come from the loop thread and the executor

    def _msg(self, level: int, text: str, reporting_node: Optional[str] = None) -> Any:
        """`level` is an int from hb50_nodes.levels; the message field is a 1-byte `byte`."""
        msg = Status()
        msg.header.stamp = self.stamps.stamp()
        msg.level = bytes([level])
        msg.reporting_node = reporting_node or self.name
        msg.status = text
        return msg

    def heartbeat(self) -> None:
        """Publish one level-OK heartbeat."""
        publish_guarded(self.node, self.heartbeat_pub, self._msg(levels.OK, 'alive'))

    def report(self, level: int, text: str, reporting_node: Optional[str] = None) -> None:
        """Log and publish one event, bounded and rate-limited per reason."""
        with self._lock:
            admitted = self.limiter.admit(level, bound(text))
        if admitted is None or not self.node.context.ok():
            return
        text = admitted
        log = self.node.get_logger()
        line = f'[{levels.NAMES[level]}] {text}'
        # rclpy forbids one call site logging at several severities: one call per severity.
        if level == levels.OK:
            log.info(line)
        elif level == levels.WARN:
            log.warning(line)
        else:
            log.error(line)
        publish_guarded(self.node, self.status_pub, self._msg(level, text, reporting_node))


def make_executor() -> Any:
    """
    Return the executor for subscriptions and slow timers.

    HB50_EXECUTOR = events (default, measured cheapest), single or multi.
    """
    kind = os.environ.get('HB50_EXECUTOR', 'events')
    if kind == 'single':
        return SingleThreadedExecutor()
    if kind == 'multi':
        return MultiThreadedExecutor()
    from rclpy.experimental import EventsExecutor
    return EventsExecutor()


def _loop_options(node: Any) -> Tuple[float, int]:
    return node.loop_cfg.busy_wait, node.loop_cfg.rt_priority


def make_loop(nodes: Sequence[Any]) -> Optional[DeadlineLoop]:
    """
    Return the DeadlineLoop that ticks the loop_mode-loop nodes of `nodes`, or None.

    Nodes at the same rate share one loop; each tick runs them in the order given
    (hb50_stack: bridge then control). A node at another rate gets an executor timer.
    The loop busy-waits and takes SCHED_FIFO as the nodes' loop parameters ask.
    """
    return runner.shared_loop(nodes, _loop_options)


def run(node_factories: Sequence[Callable[[], Any]], args: Optional[List[str]] = None) -> int:
    """
    Run the nodes: the main() body of every HB50 executable; returns the exit status.

    node_runtime.runner.run_nodes with the HB50 executor (make_executor) and loop
    (make_loop): 0 on SIGINT/SIGTERM at any moment or when a node is `done`, 2 with one
    line on stderr for a bad parameter, 1 with one line for any other failure.
    The heap gives megabyte blocks back at once (node_runtime.heap): bridge_node's memory
    stays bounded under a flood of megabyte commands.
    """
    heap.return_large_blocks()
    return runner.run_nodes(node_factories, args, executor=make_executor, loop=make_loop)
