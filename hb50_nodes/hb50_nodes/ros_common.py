"""Small ROS helpers shared by every node: stamps, status/heartbeat publishing, spinning."""

import os
import time

import rclpy
from builtin_interfaces.msg import Time
from hb50_commons.msg import Status
from rclpy.executors import ExternalShutdownException, MultiThreadedExecutor, \
    SingleThreadedExecutor

from . import levels, qos


def stamp_now():
    """Wall-clock stamp; time.time_ns() is ~5x cheaper than node.get_clock().now()."""
    ns = time.time_ns()
    return Time(sec=ns // 1_000_000_000, nanosec=ns % 1_000_000_000)


def set_stamp(stamp, ns):
    """Writes wall-clock nanoseconds into an existing builtin_interfaces/Time in place."""
    stamp.sec, stamp.nanosec = divmod(ns, 1_000_000_000)


def stamp_to_ns(stamp):
    return stamp.sec * 1_000_000_000 + stamp.nanosec


class StatusReporter:
    """Publishes events on /hb50/status and level-OK heartbeats on /hb50/heartbeat."""

    def __init__(self, node, heartbeat_rate):
        self.node = node
        self.name = node.get_name()
        self.status_pub = node.create_publisher(Status, qos.STATUS, qos.RELIABLE)
        self.heartbeat_pub = node.create_publisher(Status, qos.HEARTBEAT, qos.RELIABLE)
        self.timer = node.create_timer(1.0 / heartbeat_rate, self.heartbeat)

    def _msg(self, level, text, reporting_node=None):
        """`level` is an int from hb50_nodes.levels; the message field is a 1-byte `byte`."""
        msg = Status()
        msg.header.stamp = stamp_now()
        msg.level = bytes([level])
        msg.reporting_node = reporting_node or self.name
        msg.status = text
        return msg

    def heartbeat(self):
        self.heartbeat_pub.publish(self._msg(levels.OK, 'alive'))

    def report(self, level, text, reporting_node=None):
        log = self.node.get_logger()
        line = f'[{levels.NAMES[level]}] {text}'
        # rclpy forbids one call site logging at several severities: one call per severity.
        if level == levels.OK:
            log.info(line)
        elif level == levels.WARN:
            log.warning(line)
        else:
            log.error(line)
        self.status_pub.publish(self._msg(level, text, reporting_node))


def make_executor():
    """Executor for subscriptions and slow timers: HB50_EXECUTOR = events (default, measured
    cheapest), single or multi."""
    kind = os.environ.get('HB50_EXECUTOR', 'events')
    if kind == 'single':
        return SingleThreadedExecutor()
    if kind == 'multi':
        return MultiThreadedExecutor()
    from rclpy.experimental import EventsExecutor
    return EventsExecutor()


def spin_nodes(nodes, done=lambda: False):
    """init is done by the caller; spins until Ctrl-C/SIGTERM or done(), then stops and
    destroys every node. The EventsExecutor must be spun with a timeout (it hangs otherwise)."""
    executor = make_executor()
    for node in nodes:
        executor.add_node(node)
    for node in nodes:
        if hasattr(node, 'start'):
            node.start()
    try:
        while rclpy.ok() and not done():
            executor.spin_once(timeout_sec=0.1)
    except (KeyboardInterrupt, ExternalShutdownException):
        pass
    finally:
        for node in nodes:
            if hasattr(node, 'stop'):
                node.stop()
        executor.shutdown(timeout_sec=1.0)
        for node in nodes:
            node.destroy_node()
        rclpy.try_shutdown()


def run(node_factories, args=None):
    """main() body of every executable: init, build the nodes, spin, clean shutdown."""
    rclpy.init(args=args)
    try:
        nodes = [factory() for factory in node_factories]
    except BaseException:
        rclpy.try_shutdown()
        raise
    spin_nodes(nodes)
