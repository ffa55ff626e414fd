# SPDX-License-Identifier: Apache-2.0
"""
ROS 2 <-> AimRT bridge over AimRT's http channel backend.

AimRT -> ROS 2: an HTTP server (an AimRT http-channel subscriber) accepts
POST /channel/{topic}/{type} with application/protobuf or application/json
bodies of JointState / ImuState / TouchState (also AimRT >= 0.10's
JointStateArray / TouchSensorStateArray names) and republishes them as
sensor_msgs/JointState, sensor_msgs/Imu, aimrt_protocols_msgs/TouchState.

ROS 2 -> AimRT: aimrt_protocols_msgs/JointCommand messages become JointCommand
messages (header, names, position/velocity/effort/stiffness/damping, all kept)
POSTed to the configured AimRT http-channel subscribers.

Field mappings: aimrt_protocols_py.conversions.  Nothing is dropped silently:
data no ROS 2 message can carry (unknown protobuf fields / JSON keys, e.g.
AimRT >= 0.10's Header.sequence_num) is dropped with a warning logged once per
topic (accept_unknown_fields true, the default, so that current AimRT works out of
the box), or refused with HTTP 422 when accept_unknown_fields is false.

Its parameters are in aimrt_bridge.params, the forward status it publishes on /diagnostics
in aimrt_bridge.diagnostics.

Robustness: the HTTP server is bounded (aimrt_protocols_py.http_server.ChannelServer:
connections, timeouts, sizes); commands go through a bounded queue with a worker per target
(command_queue.CommandTarget), so a dead or hanging target never blocks the executor;
text from peers is length-capped in logs and logs are rate-limited per reason.
"""
import gc
import logging
import threading
import time
from typing import (Any, Callable, Dict, FrozenSet, Hashable, Iterable, List, Optional, Set,
                    Tuple)

from aimrt_bridge import command_cdr
from aimrt_bridge.command_queue import CommandTarget, Post, TargetStatus
from aimrt_bridge.diagnostics import DIAGNOSTICS_QOS, forward_status
from aimrt_bridge.params import PARAMETERS, STATE_KINDS
from aimrt_protocols_py import codec, conversions
from aimrt_protocols_py.errors import (AimrtProtocolError, ConversionError, JsonFormatError,
                                       LossyConversionError, UnknownMessageTypeError,
                                       UnsupportedContentTypeError)
from aimrt_protocols_py.http_client import ChannelPublisher
from aimrt_protocols_py.http_server import ChannelServer
from aimrt_protocols_py.messages import JointCommand, JointState
from aimrt_protocols_py.messages import message_class
from aimrt_protocols_py.ros_cdr import joint_state_to_ros_cdr
from diagnostic_msgs.msg import DiagnosticArray
from node_runtime import runner
from node_runtime.bounded_text import bounded, RateLimiter, suppressed_note
from node_runtime.parameters import declare, on_change
from rclpy.exceptions import (InvalidHandle, InvalidParameterTypeException,
                              InvalidParameterValueException)
from rclpy.executors import SingleThreadedExecutor
from rclpy.node import Node
from rclpy.qos import QoSProfile
from rclpy.qos_overriding_options import InvalidQosOverridesError, QoSOverridingOptions
from ros_wire import CdrError

# AimRT message kinds published as serialized bytes (same bytes, same errors as to_ros).
CDR_FORMS: Dict[Any, Callable[..., Any]] = {JointState: joint_state_to_ros_cdr}

# Commands taken from a subscription per executor callback at most (the rest wait for the
# next callback, so the executor still serves everything else).
COMMAND_BATCH = 64


def default_qos() -> QoSProfile:
    """
    Return the QoS of every publisher and subscription: keep last 10, reliable, volatile.

    History, depth and reliability can be overridden per topic from a parameters file
    (qos_overrides./<topic>.publisher.reliability, .subscription.depth, ...: rclpy's
    QoSOverridingOptions). A fresh profile each time: rclpy writes the overrides into it.
    """
    return QoSProfile(depth=10)


class ConfigError(ValueError):
    """The bridge's parameters are inconsistent."""


class StateRoute:
    """One AimRT topic -> ROS 2 topic route."""

    def __init__(self, aimrt_topic: str, aimrt_cls: Any, publisher: Any,
                 to_ros: Callable[..., Any]) -> None:
        self.aimrt_topic = aimrt_topic
        self.aimrt_cls = aimrt_cls
        self.publisher = publisher
        # Where a CDR encoder exists, the serialized message is published (bytes, the
        # same as rclpy would send; aimrt_protocols_py.ros_cdr) with the same checks.
        self.to_ros = CDR_FORMS.get(aimrt_cls, to_ros)


class CommandRoute:
    """One ROS 2 command topic -> AimRT topic route and its targets."""

    def __init__(self, aimrt_topic: str, targets: List[CommandTarget]) -> None:
        self.aimrt_topic = aimrt_topic
        self.targets = targets
        self.subscription: Any = None


class AimrtBridge(Node):  # type: ignore[misc,unused-ignore]  # rclpy is Any to mypy here
    """The bridge node: HTTP server for AimRT states, queued POSTs for ROS 2 commands."""

    def __init__(self) -> None:
        super().__init__('aimrt_bridge')
        p = declare(self, PARAMETERS)
        self._accepted = self._accepted_losses(p['accept_unknown_fields'])
        self._warned: Set[Tuple[str, FrozenSet[str]]] = set()
        self._warn_lock = threading.Lock()
        self._limiter = RateLimiter(period_s=float(p['log_period_sec']))
        self._limiter_lock = threading.Lock()
        on_change(self, PARAMETERS, self._apply)
        self._http_targets: List[CommandTarget] = []
        self._command_routes: List[Tuple[str, CommandRoute]] = []    # (ROS topic, route)
        self._server: Optional[ChannelServer] = None
        try:
            self._create_routes(p)
        except (InvalidParameterTypeException, InvalidParameterValueException,
                InvalidQosOverridesError) as exc:
            raise ConfigError(f'qos_overrides: {exc}') from None
        except RuntimeError as exc:
            if 'QoS override' not in str(exc):
                raise
            # rclpy: 'Unexpected QoS override for policy `reliability`: `x`'
            raise ConfigError(str(exc)) from None

        self._server = ChannelServer(
            p['http_host'], p['http_port'], self._on_http_message,
            max_body_bytes=int(p['http_max_body_bytes']),
            connection_limit=int(p['http_connection_limit']),
            idle_timeout_sec=float(p['http_idle_timeout_sec']),
            header_timeout_sec=float(p['http_header_timeout_sec']),
            body_timeout_sec=float(p['http_body_timeout_sec']),
            max_header_bytes=int(p['http_max_header_bytes']), on_log=self._on_server_log)
        self._server.start()
        self._diagnostics = self.create_publisher(DiagnosticArray, '/diagnostics',
                                                  DIAGNOSTICS_QOS)
        self.create_timer(float(p['diagnostics_period_sec']), self._publish_diagnostics)
        self.get_logger().info(
            f"AimRT http channel subscriber on {p['http_host']}:{self._server.port} for "
            f"{sorted(self._routes)}; commands {p['command_ros_topics']} -> "
            f"{p['command_addresses']}")

    @staticmethod
    def _accepted_losses(accept_unknown_fields: bool) -> FrozenSet[str]:
        return (frozenset({conversions.LOSS_UNKNOWN_FIELDS}) if accept_unknown_fields
                else frozenset())

    def _apply(self, changes: Dict[str, Any]) -> None:
        """Take over run-time parameter changes (the next message or warning uses them)."""
        if 'accept_unknown_fields' in changes:
            self._accepted = self._accepted_losses(changes['accept_unknown_fields'])
        if 'log_period_sec' in changes:
            with self._limiter_lock:
                self._limiter.period = float(changes['log_period_sec'])
        self.get_logger().info('parameters changed: ' + ', '.join(
            f'{name}={value}' for name, value in sorted(changes.items())))

    def _create_routes(self, p: Dict[str, Any]) -> None:
        """Create the publishers of the state routes and the subscriptions of the commands."""
        options = QoSOverridingOptions.with_default_policies()

        self._routes: Dict[str, StateRoute] = {}
        lists = (p['state_aimrt_topics'], p['state_types'], p['state_ros_topics'])
        if len({len(x) for x in lists}) != 1:
            raise ConfigError('state_aimrt_topics, state_types, state_ros_topics differ in length')
        for aimrt_topic, kind, ros_topic in zip(*lists):     # kinds: checked by declare()
            cls = STATE_KINDS[kind]
            ros_cls, to_ros, _ = conversions.ROS_FORMS[cls]
            self._routes[aimrt_topic] = StateRoute(
                aimrt_topic, cls, self.create_publisher(
                    ros_cls, ros_topic, default_qos(), qos_overriding_options=options),
                to_ros)

        lists = (p['command_ros_topics'], p['command_aimrt_topics'], p['command_addresses'])
        if len({len(x) for x in lists}) != 1:
            raise ConfigError('command_ros_topics, command_aimrt_topics, command_addresses '
                              'differ in length')
        if message_class(p['command_type_name']) is not JointCommand:
            raise ConfigError(f"command_type_name {p['command_type_name']!r} is not a "
                              'JointCommand type')
        self._command_type = p['command_type_name']
        self._command_serialization = p['command_serialization']
        for ros_topic, aimrt_topic, addresses in zip(*lists):
            targets = [CommandTarget(ChannelPublisher(a, p['http_timeout_sec'], 'aimrt_bridge'),
                                     depth=int(p['command_queue_depth']),
                                     on_event=self._on_target_event)
                       for a in addresses.split(',') if a.strip()]
            self._http_targets.extend(targets)
            route = CommandRoute(aimrt_topic, targets)
            self._command_routes.append((ros_topic, route))
            # raw: the CDR bytes go straight to the AimRT body (command_cdr), no message
            # object is built
            route.subscription = self.create_subscription(
                conversions.ROS_FORMS[JointCommand][0], ros_topic,
                lambda data, r=route: self._on_command_message(data, r),
                default_qos(), qos_overriding_options=options, raw=True)

    # ------------------------------------------------------------ AimRT -> ROS 2
    def _on_http_message(self, topic: str, msg_type: str, content_type: str,
                         body: bytes) -> Tuple[int, str]:
        """Decode, convert and publish one POSTed message; return (status, reason)."""
        route = self._routes.get(topic)
        if route is None:
            return 404, f'no ROS 2 route for AimRT topic {topic!r}'
        try:
            if message_class(msg_type) is not route.aimrt_cls:
                return 400, (f'topic {topic!r} carries {route.aimrt_cls.DESCRIPTOR.full_name}, '
                             f'not {msg_type}')
            msg = self._decode(route, body, content_type)
            ros_msg = route.to_ros(msg, accept_losses=self._accepted,
                                   on_loss=lambda losses: self._warn_once(topic, losses))
        except UnsupportedContentTypeError as exc:
            return self._reject(415, topic, exc)
        except UnknownMessageTypeError as exc:
            return self._reject(400, topic, exc)
        except ConversionError as exc:
            return self._reject(422, topic, exc)
        except AimrtProtocolError as exc:
            return self._reject(400, topic, exc)
        except Exception as exc:  # noqa: B902 - a bug must still answer the peer
            self._warn(('bug', route.aimrt_topic), f'AimRT topic {route.aimrt_topic!r}: '
                       f'{bounded(repr(exc))}', logging.ERROR)
            return 500, 'internal error'
        route.publisher.publish(ros_msg)
        return 200, 'OK'

    def _decode(self, route: StateRoute, body: bytes, content_type: str) -> Any:
        """Decode a body into its AimRT message; unknown JSON keys follow accept_unknown_fields."""
        if codec.serialization_of(content_type) == 'pb':
            # unknown protobuf fields are kept here and settled by the conversion
            return codec.decode(route.aimrt_cls, body)
        try:
            return codec.from_json(route.aimrt_cls, body)
        except JsonFormatError as strict_error:
            try:
                msg = codec.from_json(route.aimrt_cls, body, ignore_unknown_fields=True)
            except AimrtProtocolError:
                raise strict_error from None
        # only keys this schema does not know made the strict parse fail: the same loss
        # as unknown protobuf fields (JSON cannot keep them in the message)
        losses = frozenset({conversions.LOSS_UNKNOWN_FIELDS})
        if not losses <= self._accepted:
            raise LossyConversionError(f'{route.aimrt_cls.DESCRIPTOR.full_name} (JSON)', losses)
        self._warn_once(route.aimrt_topic, losses)
        return msg

    def _reject(self, status: int, topic: str, exc: Exception) -> Tuple[int, str]:
        # topic is a configured route here (unknown topics got 404 before): bounded keys
        self._warn(('rejected', topic, status),
                   f'rejected message on AimRT topic {topic!r} (HTTP {status}): {bounded(exc)}')
        return status, bounded(exc)

    def _warn(self, key: Hashable, text: str, level: int = logging.WARNING) -> None:
        """Log at most once per log_period_sec per key, saying how many were suppressed."""
        with self._limiter_lock:
            allowed, suppressed = self._limiter.allow(key)
        if not allowed:
            return
        text += suppressed_note(suppressed)
        if level >= logging.ERROR:
            self.get_logger().error(text)
        elif level >= logging.WARNING:
            self.get_logger().warning(text)
        else:
            self.get_logger().info(text)

    def _on_server_log(self, level: int, text: str) -> None:
        """Log the HTTP server's own lines (connection limit reached, ...), rate-limited."""
        if level >= logging.INFO:
            self._warn(('http_server', text.split(' from ')[0][:60]),
                       f'HTTP server: {bounded(text)}',
                       max(level, logging.INFO))

    def _on_target_event(self, target: CommandTarget, reason: str, text: str) -> None:
        st = target.status()
        self._warn(('target', target.address, reason),
                   f'AimRT command target {target.address}: {reason}: {text} (so far: '
                   f"{st['sent']} sent, {st['failed']} failed, {st['refused']} refused, "
                   f"{st['dropped']} dropped)")

    def _publish_diagnostics(self) -> None:
        """Publish the forward status of every command target (the last successful one)."""
        now = time.time()
        fqn = self.get_fully_qualified_name()
        array = DiagnosticArray()
        array.header.stamp = self.get_clock().now().to_msg()
        array.status = [forward_status(fqn, self.resolve_topic_name(ros_topic),
                                       route.aimrt_topic, target.status(), now)
                        for ros_topic, route in self._command_routes
                        for target in route.targets]
        self._diagnostics.publish(array)

    def command_status(self) -> List[TargetStatus]:
        """Counters of every command target (see command_queue.CommandTarget.status)."""
        return [t.status() for t in self._http_targets]

    def _warn_once(self, topic: str, losses: Iterable[str]) -> None:
        key = (topic, frozenset(losses))
        with self._warn_lock:
            if key in self._warned:
                return
            self._warned.add(key)
        self.get_logger().warning(
            f'AimRT topic {topic!r}: dropping {", ".join(sorted(losses))} '
            '(not representable in the ROS 2 message; see accept_unknown_fields)')

    # ------------------------------------------------------------ ROS 2 -> AimRT
    def _on_command_message(self, data: bytes, route: CommandRoute) -> None:
        """
        Forward a serialized command, then the ones already waiting in the subscription.

        The executor runs one callback per wake-up, and a wake-up costs more than a command;
        taking what is already queued here (in order, as the executor would, at most
        COMMAND_BATCH) lets a stream of thousands of commands per second through. The batch
        goes to each target in one hand-off (CommandTarget.submit_many).
        """
        items: List[Post] = []
        self._command_item(data, route.aimrt_topic, items)
        sub = route.subscription
        for _ in range(COMMAND_BATCH - 1):
            try:
                with sub.handle:
                    taken = sub.handle.take_message(sub.msg_type, True)
            except InvalidHandle:   # destroyed meanwhile
                break
            if taken is None:
                break
            self._command_item(taken[0], route.aimrt_topic, items)
        if items:
            for target in route.targets:   # only enqueues: a slow target never blocks here
                target.submit_many(items)

    def _command_item(self, data: bytes, aimrt_topic: str, items: List[Post]) -> None:
        """Append the POST of one serialized command to items (or log why it is not sent)."""
        # the header travels as the ROS 2 publisher set it (stamp and frame_id)
        try:
            body, content_type = command_cdr.command_body(data, self._command_serialization)
        except (ConversionError, CdrError) as exc:
            self._warn(('command', aimrt_topic), f'joint command not sent: {bounded(exc)}')
            return
        items.append((aimrt_topic, self._command_type, body, content_type))

    def destroy_node(self) -> None:
        """Stop the HTTP server and the command workers, then destroy the node."""
        if self._server is not None:
            self._server.stop()
        for target in self._http_targets:
            target.stop(timeout=0.5)
            st = target.status()
            # every command of the run, accounted for (the warnings are rate-limited)
            self.get_logger().info(
                f"AimRT command target {st['address']}: {st['sent']} sent, {st['failed']} "
                f"failed, {st['refused']} refused, {st['dropped']} dropped, "
                f"{st['unsent'] + int(st['busy'])} unsent at exit")
        super().destroy_node()


def main(args: Optional[List[str]] = None) -> int:
    """
    Run the bridge until SIGINT/SIGTERM (node_runtime.runner); return the exit status.

    0 on a stop, 2 with one stderr line for a bad parameter or configuration, 1 for any
    other failure (an address that cannot be bound).
    """
    return runner.run_nodes([_frozen_bridge], args, executor=SingleThreadedExecutor)


def _frozen_bridge() -> AimrtBridge:
    """
    Build the bridge, then move every object alive so far out of the garbage collector's view.

    The process serves up to thousands of requests per second from one thread; a full
    collection over the tens of thousands of objects of rclpy, protobuf and the node takes
    milliseconds there (a latency spike for whatever request arrives meanwhile). Frozen, the
    objects of start-up are never scanned again; only what the run creates is.
    """
    node = AimrtBridge()
    gc.freeze()
    return node


if __name__ == '__main__':
    raise SystemExit(main())
