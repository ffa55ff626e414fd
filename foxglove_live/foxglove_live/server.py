# SPDX-License-Identifier: Apache-2.0
"""
Foxglove_server: every ROS 2 topic, live, over the Foxglove WebSocket protocol.

A foxglove-sdk WebSocket server (default 127.0.0.1:8765, parameters `host`, `port`) with
one channel per discovered topic: schema `pkg/msg/Type` in `ros2msg` encoding (full
definition, nested types included: ros2bag_mcap.schema), message encoding `cdr`, and the
bytes exactly as received from a raw subscription whose QoS matches the topic's publishers
(ros2bag_mcap.qos). Messages are only handed to the SDK while a client subscribes.
"""

import sys
import time

import foxglove
from node_runtime import stop
import rclpy
from rclpy.exceptions import ParameterException
from rclpy.signals import SignalHandlerOptions
from ros2bag_mcap import qos as qos_util
from ros2bag_mcap.schema import DefinitionNotFound, message_class, message_definition

DISCOVERY_PERIOD = 0.5
DEPTH = 50


class ServerStartError(RuntimeError):
    """The WebSocket server could not start (e.g. its port is in use)."""


class FoxgloveBridge:

    def __init__(self, node):
        self.node = node
        self.host = node.declare_parameter('host', '127.0.0.1').value
        self.port = int(node.declare_parameter('port', 8765).value)
        self.include_hidden = bool(node.declare_parameter('include_hidden', False).value)
        self.channels = {}
        self.subscriptions = {}
        self.skipped = set()
        try:
            self.server = foxglove.start_server(name='foxglove_live', host=self.host,
                                                port=self.port)
        except Exception as exc:  # the SDK raises RuntimeError/OSError kinds on bind errors
            detail = ' '.join(str(exc).split()) or type(exc).__name__
            raise ServerStartError(f'ws://{self.host}:{self.port}: {detail}') from None

    def discover(self):
        for topic, types in self.node.get_topic_names_and_types():
            if topic in self.subscriptions or topic in self.skipped:
                continue
            if not self.include_hidden and any(p.startswith('_') for p in topic.split('/')):
                continue
            offered = qos_util.offered_profiles(self.node, topic)
            if not offered:
                continue
            type_name = types[0]
            try:
                msg_type = message_class(type_name)
                definition = message_definition(type_name)
            except DefinitionNotFound as exc:
                self.node.get_logger().warning(f'not streaming {topic}: {exc}')
                self.skipped.add(topic)
                continue
            channel = foxglove.Channel(
                topic, message_encoding='cdr',
                schema=foxglove.Schema(name=type_name, encoding='ros2msg',
                                       data=definition.encode('utf-8')))
            self.channels[topic] = channel
            self.subscriptions[topic] = self.node.create_subscription(
                msg_type, topic, self._callback(channel),
                qos_util.matching_profile(offered, DEPTH), raw=True)
            self.node.get_logger().info(f'streaming {topic} ({type_name})')

    @staticmethod
    def _callback(channel):
        def on_message(data):
            if channel.has_sinks():
                channel.log(data, log_time=time.time_ns())
        return on_message

    def close(self):
        for channel in self.channels.values():
            channel.close()
        self.server.stop()


def main(argv=None):
    """Run the server until SIGINT/SIGTERM (stop request); returns the exit code."""
    stop.install()
    if stop.requested():
        return 0
    rclpy.init(args=['foxglove_server'] + list(argv or []),
               signal_handler_options=SignalHandlerOptions.NO)
    node = rclpy.create_node('foxglove_server')
    bridge = None
    try:
        try:
            bridge = FoxgloveBridge(node)
        except ServerStartError as exc:
            print(f'error: cannot start the Foxglove server on {exc}', file=sys.stderr)
            return 1
        except (ParameterException, ValueError, TypeError) as exc:
            print(f'error: bad parameter: {" ".join(str(exc).split())}', file=sys.stderr)
            return 2
        node.get_logger().info(
            f'Foxglove WebSocket server on ws://{bridge.host}:{bridge.server.port} '
            '(Foxglove: Open connection > Foxglove WebSocket)')
        from rclpy.experimental import EventsExecutor
        executor = EventsExecutor()
        executor.add_node(node)
        next_discovery = 0.0
        while not stop.requested() and rclpy.ok():
            now = time.monotonic()
            if now >= next_discovery:
                bridge.discover()
                next_discovery = now + DISCOVERY_PERIOD
            executor.spin_once(timeout_sec=0.1)
        executor.shutdown(timeout_sec=1.0)
        return 0
    finally:
        if bridge is not None:
            bridge.close()
        node.destroy_node()
        rclpy.try_shutdown()
