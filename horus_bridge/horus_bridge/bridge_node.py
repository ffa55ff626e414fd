# SPDX-License-Identifier: Apache-2.0
# Copyright 2025 The horus_msg_py authors
"""
ROS 2 node: HORUS shared-memory topics -> ROS 2 topics, and ROS 2 -> HORUS.

HORUS topics are polled by a timer (HORUS has no cross-process wake-up a
Python process can wait on); each tick drains every mapped ring.

The topic files are shared with other processes. Before each batch of reads a
topic's file is validated (size, header identity); the ring is read with pread
(horus_msg_py.shm), so a truncated file is an error, never SIGBUS. A truncated,
corrupted or rewound topic is reported once per occurrence; the reader
resynchronises (rewind) or is reopened (truncation) while the other topics keep
flowing.
"""

from typing import Any, Dict, Hashable, List, Optional

from horus_msg_py import HorusMsgError, PowerSupplyStatus, shm, ShmError, ShmRewoundError
from horus_msg_py.ros_cdr import CDR_ENCODERS
from horus_msg_py.ros_conversions import Converter, CONVERTERS
from node_runtime import runner
from node_runtime.bounded_text import bounded, RateLimiter, suppressed_note
from node_runtime.parameters import declare, on_change, Parameter
from rclpy.clock import Clock, ClockType
from rclpy.exceptions import (InvalidHandle, InvalidParameterTypeException,
                              InvalidParameterValueException)
from rclpy.executors import SingleThreadedExecutor
from rclpy.node import Node
from rclpy.qos import DurabilityPolicy, HistoryPolicy, QoSProfile, ReliabilityPolicy
from rclpy.qos_overriding_options import InvalidQosOverridesError, QoSOverridingOptions

from .mapping import parse_horus_to_ros, parse_ros_to_horus, Route

#: ROS messages forwarded to HORUS per executor callback at most: the callback takes the
#: ones already waiting in its subscription too (issue 40: a wake-up costs more than a
#: message), the rest wait for the next callback so that the executor serves everything else.
ROS_BATCH = 64

#: How a ROS BatteryState NOT_CHARGING is written to HORUS: refused, or as this status.
NOT_CHARGING_CHOICES = ('error',) + tuple(s.name.lower() for s in PowerSupplyStatus)

#: Every parameter with its default and descriptor, in one place (config/horus_bridge.yaml
#: lists them with the QoS overrides). poll_period_s, max_per_poll, drop_intensities and
#: battery_not_charging_as can change at run time (ros2 param set); the rest is read at
#: start-up.
PARAMETERS = (
    Parameter('horus_namespace', '', 'HORUS namespace of the topic files; empty: '
              '$HORUS_NAMESPACE, else "default"'),
    Parameter('horus_to_ros', [], 'HORUS -> ROS 2 routes, TYPE:horus_topic:ros_topic'
              '[:frame_id] (frame_id for HORUS types without one); empty entries are skipped',
              value_type='string_array'),
    Parameter('ros_to_horus', [], 'ROS 2 -> HORUS routes, TYPE:ros_topic:horus_topic; empty '
              'entries are skipped', value_type='string_array'),
    Parameter('default_frame_id', '', 'ROS frame_id for HORUS types without one, when the '
              'route names none'),
    Parameter('horus_start', 'latest', 'where reading a HORUS ring starts: its newest '
              'message, or the oldest one still in the ring (replay)',
              choices=('latest', 'oldest')),
    Parameter('poll_period_s', 0.002, 'period of the HORUS polls, a steady (wall) clock '
              'also under use_sim_time [s] (changeable at run time)', read_only=False,
              value_range=(0.0001, 10.0)),
    Parameter('reopen_period_s', 0.5, 'retry period for missing, broken or re-created HORUS '
              'topics [s]', value_range=(0.001, 3600.0)),
    Parameter('max_per_poll', 256, 'messages read per HORUS topic and poll at most '
              '(changeable at run time)', read_only=False, value_range=(1, None)),
    Parameter('drop_intensities', False, 'ROS LaserScan -> HORUS: drop intensities (HORUS '
              'has no field for them) instead of refusing such a scan (changeable at run '
              'time)', read_only=False),
    Parameter('battery_not_charging_as', 'error', 'ROS BatteryState NOT_CHARGING -> HORUS: '
              'refuse (error) or write this HORUS status (changeable at run time)',
              read_only=False, choices=NOT_CHARGING_CHOICES),
    Parameter('horus_capacity', 1024, 'ring size of the HORUS topics the bridge creates '
              '[messages]', value_range=(1, 1 << 24), constraints='a power of two'),
)


def default_qos() -> QoSProfile:
    """
    Return the QoS of every publisher and subscription: keep last 10, reliable, volatile.

    History, depth and reliability can be overridden per topic from a parameters file
    (qos_overrides./<topic>.publisher.reliability, .subscription.depth, ...: rclpy's
    QoSOverridingOptions). A fresh profile each time: rclpy writes the overrides into it.
    """
    return QoSProfile(history=HistoryPolicy.KEEP_LAST, depth=10,
                      reliability=ReliabilityPolicy.RELIABLE,
                      durability=DurabilityPolicy.VOLATILE)


class _Inbound:
    """One HORUS -> ROS route."""

    def __init__(self, route: Route, publisher: Any) -> None:
        self.route = route
        self.conv: Converter = CONVERTERS[route.type_name]
        # Types with a fixed layout are serialized straight from the HORUS bytes
        # (horus_msg_py.ros_cdr, byte for byte what the message path publishes).
        encoder = CDR_ENCODERS.get(route.type_name)
        self.cdr = None if encoder is None else encoder(route.frame_id)
        self.publisher = publisher
        self.reader: Optional[shm.ShmTopicReader] = None
        self.forwarded = 0
        self.rejected = 0
        # reason of the trouble already reported, until data flows
        self.incident: Optional[str] = None


class HorusBridge(Node):  # type: ignore[misc,unused-ignore]  # rclpy is Any to mypy here
    """Polls the mapped HORUS rings into ROS 2 and writes ROS 2 messages into HORUS."""

    def __init__(self) -> None:
        super().__init__('horus_bridge')
        p = declare(self, PARAMETERS)
        self._ns = p['horus_namespace'] or None
        self._start = p['horus_start']
        self._max_per_poll = int(p['max_per_poll'])
        self._capacity = int(p['horus_capacity'])
        self._from_ros_options: Dict[str, Dict[str, Any]] = {
            'LaserScan': {'drop_intensities': bool(p['drop_intensities'])},
            'BatteryState': {'not_charging_as': self._not_charging(p['battery_not_charging_as'])},
        }
        self._limiter = RateLimiter(period_s=1.0)

        self._inbound: List[_Inbound] = []
        self._writers: Dict[str, Optional[shm.ShmTopicWriter]] = {}
        self._writer_routes: Dict[str, Route] = {}
        # rclpy's Node keeps its own subscription list in self._subscriptions: ours has
        # another name so that destroy_node() still finds and destroys them.
        self._ros_subscriptions: List[Any] = []
        try:
            self._create_routes(p)
        except (InvalidParameterTypeException, InvalidParameterValueException,
                InvalidQosOverridesError) as exc:
            raise ValueError('qos_overrides: %s' % exc) from None
        except RuntimeError as exc:
            if 'QoS override' not in str(exc):
                raise
            # rclpy: 'Unexpected QoS override for policy `reliability`: `x`'
            raise ValueError(str(exc)) from None

        # HORUS data arrives in wall time: the polls run on the steady clock, so that they
        # go on under use_sim_time whatever /clock does (stamps are the HORUS ones).
        steady = Clock(clock_type=ClockType.STEADY_TIME)
        self._poll_timer = self.create_timer(float(p['poll_period_s']), self._poll,
                                             clock=steady)
        self._reopen_timer = self.create_timer(float(p['reopen_period_s']), self._reopen,
                                               clock=steady)
        on_change(self, PARAMETERS, self._apply)
        self._reopen()

    def _create_routes(self, p: Dict[str, Any]) -> None:
        options = QoSOverridingOptions.with_default_policies()
        for route in parse_horus_to_ros(p['horus_to_ros'], p['default_frame_id']):
            pub = self.create_publisher(CONVERTERS[route.type_name].ros_type, route.ros_topic,
                                        default_qos(), qos_overriding_options=options)
            self._inbound.append(_Inbound(route, pub))
            self.get_logger().info('HORUS %s %r -> ROS %s' % (
                route.type_name, route.horus_topic, route.ros_topic))

        for route in parse_ros_to_horus(p['ros_to_horus']):
            conv = CONVERTERS[route.type_name]
            self._writer_routes[route.horus_topic] = route
            self._writers[route.horus_topic] = shm.ShmTopicWriter(
                conv.horus_type, route.horus_topic, self._ns, capacity=self._capacity)
            holder: List[Any] = []
            holder.append(self.create_subscription(
                conv.ros_type, route.ros_topic,
                lambda msg, r=route, h=holder: self._on_ros_batch(r, h[0], msg),
                default_qos(), qos_overriding_options=options))
            self._ros_subscriptions.append(holder[0])
            self.get_logger().info('ROS %s %s -> HORUS %r' % (
                route.type_name, route.ros_topic, route.horus_topic))

    def _apply(self, changes: Dict[str, Any]) -> None:
        """Take over run-time parameter changes (the next poll or message uses them)."""
        if 'poll_period_s' in changes:
            self._poll_timer.timer_period_ns = int(changes['poll_period_s'] * 1e9)
        if 'max_per_poll' in changes:
            self._max_per_poll = int(changes['max_per_poll'])
        if 'drop_intensities' in changes:
            self._from_ros_options['LaserScan'] = {
                'drop_intensities': bool(changes['drop_intensities'])}
        if 'battery_not_charging_as' in changes:
            self._from_ros_options['BatteryState'] = {
                'not_charging_as': self._not_charging(changes['battery_not_charging_as'])}
        self.get_logger().info('parameters changed: ' + ', '.join(
            '%s=%s' % item for item in sorted(changes.items())))

    @staticmethod
    def _not_charging(value: str) -> Optional[PowerSupplyStatus]:
        """HORUS status for NOT_CHARGING (None: refuse); `value` is one of the choices."""
        return None if value == 'error' else PowerSupplyStatus[value.upper()]

    def _warn(self, key: Hashable, text: str) -> None:
        """Log a warning at most once a second per key (topic, reason); text is capped."""
        allowed, suppressed = self._limiter.allow(key)
        if allowed:
            self.get_logger().warning(bounded(text, 400) + suppressed_note(suppressed))

    # -- HORUS -> ROS ----------------------------------------------------------
    def _reopen(self) -> None:
        for inbound in self._inbound:
            if inbound.reader is not None and not inbound.reader.replaced():
                continue
            if inbound.reader is not None:
                self.get_logger().info('HORUS topic %r was re-created; reopening'
                                       % inbound.route.horus_topic)
                self._drop_reader(inbound)
            try:
                inbound.reader = shm.ShmTopicReader(
                    inbound.conv.horus_type, inbound.route.horus_topic, self._ns,
                    start=self._start)
            except ShmError as exc:
                self.get_logger().debug(bounded(exc))
            except OSError as exc:
                self._incident(inbound, 'open', 'cannot open: %s' % exc)
        for topic, writer in list(self._writers.items()):
            if writer is None or writer.replaced():
                self._open_writer(topic)

    def _drop_reader(self, inbound: _Inbound) -> None:
        if inbound.reader is not None:
            try:
                inbound.reader.close()
            except (OSError, ValueError):
                pass
        inbound.reader = None

    def _incident(self, inbound: _Inbound, reason: str, text: str) -> None:
        """Warn once per occurrence (until data flows again) of trouble on a topic."""
        if inbound.incident != reason:
            inbound.incident = reason
            self._warn((inbound.route.horus_topic, reason),
                       'HORUS %r: %s' % (inbound.route.horus_topic, text))

    def _poll(self) -> None:
        for inbound in self._inbound:
            if inbound.reader is not None:
                self._poll_one(inbound)

    def _poll_one(self, inbound: _Inbound) -> None:
        reader = inbound.reader
        if reader is None:
            return
        try:
            reader.check()      # size and header identity, before every batch of reads
            budget = self._max_per_poll
            while budget > 0:
                try:
                    batch = reader.recv_many(budget)    # batched preads, same rules
                except ShmRewoundError as exc:
                    self._incident(inbound, 'rewind', str(exc))
                    budget -= 1
                    continue
                if not batch:
                    break
                budget -= len(batch)
                for data in batch:
                    self._forward(inbound, data)
        except (ShmError, OSError) as exc:
            # Truncated, corrupted or vanished: drop the reader; _reopen() maps the
            # topic again once its file is whole (or re-created).
            self._incident(inbound, 'broken', '%s; reopening when it is valid again' % exc)
            self._drop_reader(inbound)

    def _forward(self, inbound: _Inbound, data: bytes) -> None:
        try:
            if inbound.cdr is not None:     # serialized directly: publish(bytes)
                msg = inbound.cdr(data)
            else:
                msg = inbound.conv.to_ros(inbound.conv.horus_type.from_bytes(data),
                                          frame_id=inbound.route.frame_id)
        except HorusMsgError as exc:
            inbound.rejected += 1
            self._warn((inbound.route.horus_topic, 'rejected'),
                       'HORUS %r: message not forwarded: %s'
                       % (inbound.route.horus_topic, bounded(exc)))
            return
        inbound.publisher.publish(msg)
        inbound.forwarded += 1
        inbound.incident = None

    # -- ROS -> HORUS ----------------------------------------------------------
    def _open_writer(self, topic: str) -> None:
        route = self._writer_routes[topic]
        old = self._writers.get(topic)
        if old is not None:
            try:
                old.close(unlink=False)
            except (OSError, ValueError):
                pass
            self._writers[topic] = None
        try:
            self._writers[topic] = shm.ShmTopicWriter(
                CONVERTERS[route.type_name].horus_type, topic, self._ns,
                capacity=self._capacity)
        except (ShmError, OSError) as exc:
            self._warn((topic, 'writer'), 'HORUS %r: cannot write: %s' % (topic, bounded(exc)))

    def _on_ros_batch(self, route: Route, sub: Any, msg: Any) -> None:
        """Forward `msg`, then the messages already waiting in `sub`, in order."""
        self._on_ros(route, msg)
        for _ in range(ROS_BATCH - 1):
            try:
                with sub.handle:
                    taken = sub.handle.take_message(sub.msg_type, sub.raw)
            except InvalidHandle:   # destroyed meanwhile
                return
            if taken is None:
                return
            self._on_ros(route, taken[0])

    def _on_ros(self, route: Route, msg: Any) -> None:
        conv = CONVERTERS[route.type_name]
        try:
            horus_msg = conv.from_ros(msg, **self._from_ros_options.get(route.type_name, {}))
        except HorusMsgError as exc:
            self._warn((route.ros_topic, 'rejected'), 'ROS %s: message not forwarded: %s'
                       % (route.ros_topic, bounded(exc)))
            return
        writer = self._writers.get(route.horus_topic)
        if writer is None:
            self._warn((route.horus_topic, 'writer'), 'HORUS %r: no valid topic file; message '
                       'not forwarded' % route.horus_topic)
            return
        try:
            writer.send(horus_msg)
        except (ShmError, OSError) as exc:
            self._warn((route.horus_topic, 'writer'), 'HORUS %r: message not forwarded: %s; '
                       'reopening' % (route.horus_topic, bounded(exc)))
            self._open_writer(route.horus_topic)

    def close(self) -> None:
        """Leave every HORUS topic (the last participant removes a topic's files)."""
        for inbound in self._inbound:
            if inbound.reader is not None:
                self._drop_reader(inbound)
        for writer in self._writers.values():
            if writer is not None:
                try:
                    writer.close()
                except (OSError, ValueError):
                    pass
        self._writers.clear()


def main(args: Optional[List[str]] = None) -> int:
    """
    Run the bridge until SIGINT/SIGTERM (node_runtime.runner); return the exit status.

    0 on a stop, 2 with one stderr line for a bad parameter or mapping, 1 for any other
    failure (a shared-memory segment that cannot be opened).
    """
    # SingleThreadedExecutor kept: with EventsExecutor the bridge used less CPU but
    # delivered fewer messages at high offered rates (benchmarks/README.md).
    return runner.run_nodes([HorusBridge], args, executor=SingleThreadedExecutor)


if __name__ == '__main__':
    raise SystemExit(main())
