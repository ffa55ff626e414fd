# SPDX-License-Identifier: Apache-2.0
"""Small ROS helpers shared by every node: stamps, timers, status and heartbeats, spinning."""

import os
import sys
import threading
import time

from builtin_interfaces.msg import Time
from hb50_commons.msg import Status
from node_runtime import stop
from node_runtime.loop import DeadlineLoop
import rclpy
from rclpy.clock import Clock, ClockType
from rclpy.executors import ExternalShutdownException, MultiThreadedExecutor, \
    SingleThreadedExecutor
from rclpy.parameter import Parameter
from rclpy.signals import SignalHandlerOptions

from . import levels, qos, topics
from .reporting import bound, ReportLimiter


class StampClock:
    """
    The time a node stamps its messages with: wall clock, or the node's clock with use_sim_time.

    Without use_sim_time (the default) the stamps are time.time_ns(), ~5x cheaper than
    node.get_clock().now() (the 500 Hz path). With use_sim_time:=true they are the node's ROS
    clock, which follows /clock (0 until the first /clock message). A later set of
    use_sim_time switches between the two.
    """

    def __init__(self, node):
        self._clock = node.get_clock()
        self.sim = node.get_parameter('use_sim_time').value is True
        node.add_post_set_parameters_callback(self._on_set)

    def _on_set(self, parameters):
        for p in parameters:
            if p.name == 'use_sim_time' and p.type_ == Parameter.Type.BOOL:
                self.sim = p.value

    def now_ns(self):
        """Return the current stamp time in nanoseconds."""
        if self.sim:
            return self._clock.now().nanoseconds
        return time.time_ns()

    def stamp(self):
        """Return the current stamp time as a builtin_interfaces/Time."""
        sec, nanosec = divmod(self.now_ns(), 1_000_000_000)
        return Time(sec=sec, nanosec=nanosec)


def steady_timer(node, period, callback):
    """
    Return a timer of `node` on the steady clock.

    Heartbeats, the heartbeat checks, the loop in timer mode and live_view's screen run in
    real time whatever use_sim_time says: a paused or absent /clock must not stop them.
    """
    return node.create_timer(period, callback, clock=Clock(clock_type=ClockType.STEADY_TIME))


def set_stamp(stamp, ns):
    """Write wall-clock nanoseconds into an existing builtin_interfaces/Time in place."""
    stamp.sec, stamp.nanosec = divmod(ns, 1_000_000_000)


def stamp_to_ns(stamp):
    """Return the nanoseconds of a builtin_interfaces/Time."""
    return stamp.sec * 1_000_000_000 + stamp.nanosec


def publish_guarded(node, publisher, msg):
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

    def __init__(self, node, heartbeat_rate, report_period=1.0):
        self.node = node
        self.name = node.get_name()
        self.stamps = getattr(node, 'stamps', None) or StampClock(node)
        self.status_pub = node.create_publisher(Status, topics.STATUS, qos.RELIABLE)
        self.heartbeat_pub = node.create_publisher(Status, topics.HEARTBEAT, qos.RELIABLE)
        self.timer = steady_timer(node, 1.0 / heartbeat_rate, self.heartbeat)
        self.limiter = ReportLimiter(report_period)
        self._lock = threading.Lock()   # reports come from the loop thread and the executor

    def _msg(self, level, text, reporting_node=None):
        """`level` is an int from hb50_nodes.levels; the message field is a 1-byte `byte`."""
        msg = Status()
        msg.header.stamp = self.stamps.stamp()
        msg.level = bytes([level])
        msg.reporting_node = reporting_node or self.name
        msg.status = text
        return msg

    def heartbeat(self):
        """Publish one level-OK heartbeat."""
        publish_guarded(self.node, self.heartbeat_pub, self._msg(levels.OK, 'alive'))

    def report(self, level, text, reporting_node=None):
        """Log and publish one event, bounded and rate-limited per reason."""
        with self._lock:
            text = self.limiter.admit(level, bound(text))
        if text is None or not self.node.context.ok():
            return
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


def make_executor():
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


def _finished(nodes, done):
    return done() or any(getattr(node, 'done', False) is True for node in nodes)


def make_loop(nodes):
    """
    Return the DeadlineLoop that ticks the loop_mode-loop nodes of `nodes`, or None.

    Nodes at the same rate share one loop; each tick runs them in the order given
    (hb50_stack: bridge then control). A node at another rate gets an executor timer.
    """
    loop_nodes = [n for n in nodes if getattr(n, 'runs_in_loop', False)]
    if not loop_nodes:
        return None
    period = loop_nodes[0].period
    same = [n for n in loop_nodes if n.period == period]
    for node in loop_nodes:
        if node not in same:
            node.start_timer()
    ticks = tuple(n.tick for n in same)
    if len(ticks) == 1:
        tick = ticks[0]
    else:
        def tick(now):
            for one in ticks:
                one(now)
    cfgs = [n.loop_cfg for n in same]
    loop = DeadlineLoop(period, tick, busy_wait=max(c.busy_wait for c in cfgs),
                        rt_priority=max(c.rt_priority for c in cfgs))
    loop.nodes = same
    return loop


def spin_nodes(nodes, done=lambda: False):
    """
    Spin `nodes` until a stop, then stop and destroy them and shut the context down.

    A stop is SIGINT/SIGTERM (stop.requested()), done(), a node's `done` attribute or a
    context shutdown. Then the nodes' loops and timers stop, the executor shuts down, the
    nodes are destroyed and the context shut down, in that order.

    With loop nodes (loop_mode loop) this thread runs their DeadlineLoop, which spins the
    executor between the deadlines: one thread serves the ticks, subscriptions and timers.
    Otherwise it spins the executor alone. rclpy.init is done by the caller. The
    EventsExecutor must be spun with a timeout (it hangs otherwise); the timeout also bounds
    how late a stop request is seen (a period, or 0.1 s without a loop).
    """
    executor = make_executor()
    loop = None

    def keep_going():
        return not stop.requested() and rclpy.ok() and not _finished(nodes, done)

    def stopping():
        return stop.requested() or not rclpy.ok()

    try:
        for node in nodes:
            executor.add_node(node)
        for node in nodes:
            if hasattr(node, 'start'):
                node.start()
        loop = make_loop(nodes)
        if loop is not None:
            loop.prepare_thread()
            if loop.rt_error is not None:
                loop.nodes[0].get_logger().warning(
                    f'rt_priority {loop.rt_priority}: SCHED_FIFO not available '
                    f'({loop.rt_error}); the loop runs at normal priority')
            loop.run(executor, keep_going, stopping)
        else:
            while keep_going():
                executor.spin_once(timeout_sec=0.1)
    except (KeyboardInterrupt, ExternalShutdownException):
        pass
    finally:
        # Loop threads and timers first, while the context is valid: their last log lines
        # and publishes still work, and nothing runs after the executor stops.
        for node in nodes:
            if hasattr(node, 'stop'):
                node.stop()
        if loop is not None and loop.summary() is not None and rclpy.ok():
            # Once, at exit: a stall leaves periods without a tick (no sample exists for
            # them), which a subscriber sees as stamp gaps; this tells them apart from
            # messages lost on the way.
            loop.nodes[0].get_logger().warning(loop.summary())
        executor.shutdown(timeout_sec=1.0)
        for node in nodes:
            node.destroy_node()
        rclpy.try_shutdown()


def run(node_factories, args=None):
    """
    Run the nodes: the main() body of every executable.

    Init, build the nodes, spin, clean shutdown.

    Returns the exit status: 0, also on SIGINT/SIGTERM at any moment; 2 with a one-line
    error when a parameter is invalid.
    """
    stop.install()
    if stop.requested():
        return 0
    rclpy.init(args=args, signal_handler_options=SignalHandlerOptions.NO)
    nodes = []
    try:
        for factory in node_factories:
            if stop.requested():
                break
            nodes.append(factory())
    except ValueError as exc:
        print(f'error: {exc}', file=sys.stderr)
        for node in nodes:
            node.destroy_node()
        rclpy.try_shutdown()
        return 2
    except BaseException:
        for node in nodes:
            node.destroy_node()
        rclpy.try_shutdown()
        raise
    spin_nodes(nodes)
    return 0
