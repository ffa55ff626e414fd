# Copyright 2025 The horus_msg_py authors
# SPDX-License-Identifier: Apache-2.0
"""ROS 2 node: HORUS shared-memory topics -> ROS 2 topics, and ROS 2 -> HORUS.

HORUS topics are polled by a timer (HORUS has no cross-process wake-up a
Python process can wait on); each tick drains every mapped ring.
"""

import rclpy
from rclpy.executors import ExternalShutdownException
from rclpy.node import Node

from horus_msg_py import HorusMsgError, PowerSupplyStatus, shm
from horus_msg_py.ros_conversions import CONVERTERS

from .mapping import parse_horus_to_ros, parse_ros_to_horus
from .qos import bridge_qos

#: Every parameter with its default, declared in one place.
PARAMETERS = {
    'horus_namespace': '',              # '' = $HORUS_NAMESPACE or "default"
    'horus_to_ros': [''],               # TYPE:horus_topic:ros_topic[:frame_id]
    'ros_to_horus': [''],               # TYPE:ros_topic:horus_topic
    'default_frame_id': '',             # ROS frame_id for HORUS types without one
    'horus_start': 'latest',            # 'latest' or 'oldest' (replay the ring)
    'poll_period_s': 0.002,
    'reopen_period_s': 0.5,             # retry missing / re-created HORUS topics
    'max_per_poll': 256,
    'qos_depth': 10,
    'qos_reliability': 'reliable',
    'drop_intensities': False,          # LaserScan intensities -> HORUS: refuse by default
    'battery_not_charging_as': 'error',  # or a HORUS status name: unknown/discharging/...
    'horus_capacity': 1024,             # ring size when the bridge creates a HORUS topic
}


class _Inbound:
    """One HORUS -> ROS route."""

    def __init__(self, route, publisher):
        self.route = route
        self.conv = CONVERTERS[route.type_name]
        self.publisher = publisher
        self.reader = None
        self.forwarded = 0
        self.rejected = 0


class HorusBridge(Node):

    def __init__(self):
        super().__init__('horus_bridge')
        for name, default in PARAMETERS.items():
            self.declare_parameter(name, default)
        p = {name: self.get_parameter(name).value for name in PARAMETERS}
        self._ns = p['horus_namespace'] or None
        self._start = p['horus_start']
        if self._start not in ('latest', 'oldest'):
            raise ValueError("horus_start must be 'latest' or 'oldest'")
        self._max_per_poll = int(p['max_per_poll'])
        self._capacity = int(p['horus_capacity'])
        self._from_ros_options = {
            'LaserScan': {'drop_intensities': bool(p['drop_intensities'])},
            'BatteryState': {'not_charging_as': self._not_charging(p['battery_not_charging_as'])},
        }
        qos = bridge_qos(int(p['qos_depth']), p['qos_reliability'])

        self._inbound = []
        for route in parse_horus_to_ros(p['horus_to_ros'], p['default_frame_id']):
            pub = self.create_publisher(CONVERTERS[route.type_name].ros_type, route.ros_topic, qos)
            self._inbound.append(_Inbound(route, pub))
            self.get_logger().info('HORUS %s %r -> ROS %s' % (
                route.type_name, route.horus_topic, route.ros_topic))

        self._writers = {}
        self._subscriptions = []
        for route in parse_ros_to_horus(p['ros_to_horus']):
            conv = CONVERTERS[route.type_name]
            self._writers[route.horus_topic] = shm.ShmTopicWriter(
                conv.horus_type, route.horus_topic, self._ns, capacity=self._capacity)
            self._subscriptions.append(self.create_subscription(
                conv.ros_type, route.ros_topic,
                lambda msg, r=route: self._on_ros(r, msg), qos))
            self.get_logger().info('ROS %s %s -> HORUS %r' % (
                route.type_name, route.ros_topic, route.horus_topic))

        self._poll_timer = self.create_timer(float(p['poll_period_s']), self._poll)
        self._reopen_timer = self.create_timer(float(p['reopen_period_s']), self._reopen)
        self._reopen()

    @staticmethod
    def _not_charging(value):
        if value == 'error':
            return None
        try:
            return PowerSupplyStatus[value.upper()]
        except KeyError:
            raise ValueError("battery_not_charging_as must be 'error' or one of %s"
                             % [s.name.lower() for s in PowerSupplyStatus]) from None

    # -- HORUS -> ROS ----------------------------------------------------------
    def _reopen(self):
        for inbound in self._inbound:
            if inbound.reader is not None and not inbound.reader.replaced():
                continue
            if inbound.reader is not None:
                self.get_logger().info('HORUS topic %r was re-created; reopening'
                                       % inbound.route.horus_topic)
                inbound.reader.close()
                inbound.reader = None
            try:
                inbound.reader = shm.ShmTopicReader(
                    inbound.conv.horus_type, inbound.route.horus_topic, self._ns,
                    start=self._start)
            except shm.ShmError as exc:
                self.get_logger().debug(str(exc))

    def _poll(self):
        for inbound in self._inbound:
            reader = inbound.reader
            if reader is None:
                continue
            for _ in range(self._max_per_poll):
                data = reader.recv_bytes()
                if data is None:
                    break
                try:
                    msg = inbound.conv.to_ros(inbound.conv.horus_type.from_bytes(data),
                                              frame_id=inbound.route.frame_id)
                except HorusMsgError as exc:
                    inbound.rejected += 1
                    self.get_logger().warning(
                        'HORUS %r: message not forwarded: %s' % (inbound.route.horus_topic, exc),
                        throttle_duration_sec=1.0)
                    continue
                inbound.publisher.publish(msg)
                inbound.forwarded += 1

    # -- ROS -> HORUS ----------------------------------------------------------
    def _on_ros(self, route, msg):
        conv = CONVERTERS[route.type_name]
        try:
            horus_msg = conv.from_ros(msg, **self._from_ros_options.get(route.type_name, {}))
        except HorusMsgError as exc:
            self.get_logger().warning('ROS %s: message not forwarded: %s' % (route.ros_topic, exc),
                                      throttle_duration_sec=1.0)
            return
        self._writers[route.horus_topic].send(horus_msg)

    def close(self):
        for inbound in self._inbound:
            if inbound.reader is not None:
                inbound.reader.close()
                inbound.reader = None
        for writer in self._writers.values():
            writer.close()
        self._writers.clear()


def main(args=None):
    rclpy.init(args=args)
    node = None
    try:
        node = HorusBridge()
        rclpy.spin(node)
    except (KeyboardInterrupt, ExternalShutdownException):
        pass
    finally:
        if node is not None:
            node.close()
            node.destroy_node()
        rclpy.try_shutdown()


if __name__ == '__main__':
    main()
