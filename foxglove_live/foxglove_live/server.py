# SPDX-License-Identifier: Apache-2.0
"""
Foxglove_server: every ROS 2 topic, live, over the Foxglove WebSocket protocol.

A ws-protocol v1 server (ws_server, on `websockets`; default 127.0.0.1:8765) that accepts
both subprotocol names, `foxglove.websocket.v1` (Foxglove Studio 1.x, Lichtblick up to
1.21) and `foxglove.sdk.v1` (current Foxglove and Lichtblick). One channel per discovered
topic: schema `pkg/msg/Type` in `ros2msg` encoding (full definition, nested types
included: ros2bag_mcap.schema), message encoding `cdr`, and the bytes exactly as received
from a raw subscription whose QoS matches the topic's publishers (ros2bag_mcap.qos).

foxglove_bridge's capabilities, each switchable (`capabilities`, `read_only`):
clientPublish (client_publish), parameters and services through the ROS services
(parameters, services, ros_calls), connectionGraph (with the services' providers), assets,
and time, advertised only with use_sim_time (then /clock is sent as the server's time).
Transient-local topics are replayed to the one subscription that joins late; a refused
input is answered with a status to the client that sent it.

The streamed topics are taken in batches (node_runtime.batch, issue 40) in a thread of their
own: one wake-up at most every BATCH_INTERVAL takes every sample waiting on every topic,
instead of one executor wake-up per message (2000 a second with the HB50 stack). The node's
executor serves the rest (parameters, /clock, the discovery tick). Each message's log time
is its DDS receive time (with use_sim_time: the ROS clock when its batch is taken).
"""

import os
import re
import time
from urllib.parse import unquote, urlparse

from node_runtime import parameters, runner
from node_runtime.batch import BatchReader, max_rate
from node_runtime.bounded_text import bounded, RateLimiter
from node_runtime.qos_matching import requested_profiles
from rclpy.node import Node
from rclpy.qos import DurabilityPolicy
from ros2bag_mcap import qos as qos_util
from ros2bag_mcap.schema import DefinitionNotFound, message_class, message_definition

from . import client_publish as cp
from . import protocol
from . import services as srv
from .parameters import Parameters
from .ros_calls import RosCalls
from .ws_server import CallFailed, Graph, ServerListener, ServerStartError, WsServer

__all__ = ['FoxgloveBridge', 'FoxgloveServerNode', 'ServerStartError', 'main']

DISCOVERY_PERIOD = 0.5
GRAPH_PERIOD = 2.0
DEPTH = 50
# Between two takes of the streamed topics at least [s]: a client sees a batch at most
# ws_server.FLUSH_DELAY_S after its first message anyway. A history of max_qos_depth (25 by
# default) holds 5 kHz of one topic meanwhile (DEPTH 50: 10 kHz).
BATCH_INTERVAL = 0.005
# /clock may run at kHz; clients need the time, not every tick of it.
TIME_PERIOD_S = 0.01
# foxglove_bridge's: meshes, textures and robot descriptions of installed packages.
DEFAULT_ASSET_ALLOWLIST = (
    r'^package://(?:[-\w%]+/)*[-\w%.]+\.(?:dae|fbx|glb|gltf|jpeg|jpg|mtl|obj|png|stl|tif|'
    r'tiff|urdf|webp|xacro)$',)
EVERYTHING = ('.*',)
P = parameters.Parameter
PARAMETERS = (
    P('port', 8765, 'WebSocket port (0: any free port)', value_range=(0, 65535)),
    P('address', '127.0.0.1', 'address to bind (0.0.0.0: every interface; exposes the '
      'robot to the network)'),
    P('host', '', 'deprecated alias of address (wins when set)'),
    P('topic_whitelist', EVERYTHING, 'regexes of the topics streamed'),
    P('client_topic_whitelist', EVERYTHING, 'regexes of the topics a client may publish on'),
    P('service_whitelist', EVERYTHING, 'regexes of the services offered (full names)'),
    P('service_call_whitelist', EVERYTHING,
      'regexes of the offered services a client may call (full names)'),
    P('param_whitelist', EVERYTHING, 'regexes of the parameters offered, /node_name.param'),
    P('param_write_whitelist', EVERYTHING,
      'regexes of the offered parameters a client may set, /node_name.param'),
    P('read_only', False, 'offer no capability through which a client changes the robot '
      '(clientPublish, parameters, services)'),
    P('include_hidden', False, 'also stream topics and services with a _ name component'),
    P('max_qos_depth', 25, 'largest subscription/publisher history depth',
      value_range=(1, 10000)),
    P('capabilities', protocol.CAPABILITIES,
      'capabilities offered (time only with use_sim_time)', choices=protocol.CAPABILITIES),
    P('asset_uri_allowlist', DEFAULT_ASSET_ALLOWLIST,
      'regexes of the package:// and file:// URIs served as assets'),
    P('max_client_message_bytes', 1 << 20, 'largest client message published [bytes]',
      value_range=(1, 1 << 28)),
    P('call_timeout_s', 2.0, 'longest wait for a node to answer a parameter or service '
      'call made for a client [s]', value_range=(0.05, 60.0)),
)


def _regexes(values, name):
    try:
        return [re.compile(p) for p in values[name]]
    except re.error as exc:
        raise ValueError(f'{name}: bad regex: {exc}') from None


def _allowed(regexes, name):
    return any(r.fullmatch(name) for r in regexes)


def _hidden(name):
    return any(p.startswith('_') for p in name.split('/'))


def offered_capabilities(wanted, read_only, use_sim_time):
    """
    Return the capabilities advertised, in the protocol's order.

    read_only leaves out every writing capability; parametersSubscribe needs parameters;
    time only with sim time, as foxglove_bridge: an app that sees `time` stamps every
    message with the server's clock, so advertising it without sending one freezes the
    app's clock at zero.
    """
    caps = set(wanted)
    if read_only:
        caps -= set(protocol.WRITING_CAPABILITIES)
    if protocol.PARAMETERS not in caps:
        caps.discard(protocol.PARAMETERS_SUBSCRIBE)
    if not use_sim_time:
        caps.discard(protocol.TIME)
    return [c for c in protocol.CAPABILITIES if c in caps]


class FoxgloveBridge(ServerListener):
    """The ROS side of the server: discovery, subscriptions and every capability."""

    def __init__(self, node):
        """Declare the parameters, start the server; ServerStartError if it cannot bind."""
        self.node = node
        values = parameters.declare(node, PARAMETERS)
        self.host = values['host'] or values['address']
        self.include_hidden = values['include_hidden']
        self.max_depth = values['max_qos_depth']
        self.max_client_bytes = values['max_client_message_bytes']
        self.call_timeout = values['call_timeout_s']
        self.topic_re = _regexes(values, 'topic_whitelist')
        self.service_re = _regexes(values, 'service_whitelist')
        self.service_call_re = _regexes(values, 'service_call_whitelist')
        self.client_topic_re = _regexes(values, 'client_topic_whitelist')
        self.asset_re = _regexes(values, 'asset_uri_allowlist')
        self.param_re = _regexes(values, 'param_whitelist')
        self.param_write_re = _regexes(values, 'param_write_whitelist')
        self.sim_time = bool(node.get_parameter('use_sim_time').value)
        self.capabilities = offered_capabilities(values['capabilities'], values['read_only'],
                                                 self.sim_time)
        self.channels = {}           # topic -> channel id
        self.subscriptions = {}      # topic -> node_runtime.batch.Batched
        self.reader = None
        self.skipped = set()
        self.service_classes = {}    # name -> (type name, generated class)
        self.skipped_services = set()
        self.publishers = {}         # (client id, client channel id) -> (class, publisher)
        self.log_limit = RateLimiter(period_s=5.0)
        self.next_graph = 0.0
        self.last_time = 0.0
        self.clock_sub = None
        self.calls = None
        self.parameters = None
        if {protocol.PARAMETERS, protocol.SERVICES} & set(self.capabilities):
            self.calls = RosCalls()
        if protocol.PARAMETERS in self.capabilities:
            self.parameters = Parameters(
                self.calls, lambda name: _allowed(self.param_re, name), self.call_timeout,
                self._refuse, node.get_fully_qualified_name(),
                writable=lambda name: _allowed(self.param_write_re, name))
        self.server = WsServer(
            self, 'foxglove_live', self.capabilities, supported_encodings=cp.ENCODINGS,
            metadata={'ROS_DISTRO': os.environ.get('ROS_DISTRO', '')},
            warn=self._limited_log, max_message_bytes=self.max_client_bytes)
        try:
            self.server.start(self.host, values['port'])
        except ServerStartError:
            if self.calls is not None:
                self.calls.close()
            raise
        if self.parameters is not None:
            self.parameters.publish = self.server.publish_parameter_values
        self.reader = BatchReader(node.context, min_interval=BATCH_INTERVAL,
                                  name='foxglove_topics')
        self.reader.start()
        if protocol.TIME in self.capabilities:
            from rosgraph_msgs.msg import Clock
            self.clock_sub = node.create_subscription(
                Clock, '/clock', self._on_clock, qos_util.matching_profile([], 10))

    # --- topics streamed to clients

    def discover(self):
        """Stream new topics; every GRAPH_PERIOD refresh the graph and the services."""
        for topic, types in self.node.get_topic_names_and_types():
            if topic in self.subscriptions or topic in self.skipped:
                continue
            if not self.include_hidden and _hidden(topic):
                continue
            if not _allowed(self.topic_re, topic):
                continue
            offered = qos_util.offered_profiles(self.node, topic)
            if not offered:
                continue
            self._stream(topic, types[0], offered)
        now = time.monotonic()
        if now >= self.next_graph:
            self.next_graph = now + GRAPH_PERIOD
            if protocol.CONNECTION_GRAPH in self.capabilities:
                self.server.publish_connection_graph(self.graph())
            if protocol.SERVICES in self.capabilities:
                self.advertise_services()

    def _stream(self, topic, type_name, offered):
        try:
            msg_type = message_class(type_name)
            definition = message_definition(type_name)
        except DefinitionNotFound as exc:
            self.node.get_logger().warning(f'not streaming {topic}: {exc}')
            self.skipped.add(topic)
            return
        profile = qos_util.matching_profile(offered, min(DEPTH, self.max_depth))
        latched_depth = 0
        if profile.durability == DurabilityPolicy.TRANSIENT_LOCAL:
            latched_depth = min(max(p.depth for p in offered) or 1, self.max_depth)
        channel_id = self.server.add_channel(topic, 'cdr', type_name, definition, 'ros2msg',
                                             latched_depth)
        self.channels[topic] = channel_id
        self.subscriptions[topic] = self.reader.add(
            self.node, msg_type, topic, profile, self._callback(channel_id), raw=True,
            with_info=True)
        self.node.get_logger().info(f'streaming {topic} ({type_name})')
        self.node.get_logger().debug(
            f'{topic}: depth {profile.depth} holds {max_rate(profile.depth, BATCH_INTERVAL):.0f}'
            ' Hz between two takes')

    def _callback(self, channel_id):
        log, now, sim_time = self.server.log, self._now, self.sim_time

        # A batch of (CDR bytes, message info), oldest first (reader thread).
        def on_batch(samples):
            if sim_time:
                stamp = now()
                for data, _ in samples:
                    log(channel_id, data, stamp)
                return
            for data, info in samples:
                log(channel_id, data, info['received_timestamp'] or time.time_ns())
        return on_batch

    def _now(self):
        """Log time of a message: ROS time with sim time (the clients' clock), else wall."""
        if self.sim_time:
            return self.node.get_clock().now().nanoseconds
        return time.time_ns()

    def _on_clock(self, msg):
        wall = time.monotonic()
        if wall - self.last_time >= TIME_PERIOD_S:
            self.last_time = wall
            self.server.broadcast_time(msg.clock.sec * 1_000_000_000 + msg.clock.nanosec)

    # --- services

    def advertise_services(self):
        """Advertise the graph's services to clients; withdraw the ones that left."""
        found = {}
        for name, types in self.node.get_service_names_and_types():
            if not self.include_hidden and _hidden(name):
                continue
            if _allowed(self.service_re, name) and types:
                found[name] = types[0]
        offered = []
        for name, type_name in sorted(found.items()):
            if name in self.skipped_services:
                continue
            try:
                request, response = srv.service_definitions(type_name)
                cls = srv.service_class(type_name)
            except DefinitionNotFound as exc:
                self.node.get_logger().warning(f'not offering {name}: {exc}')
                self.skipped_services.add(name)
                continue
            self.service_classes[name] = (type_name, cls)
            offered.append((name, type_name, request, response))
        self.server.set_services(offered)

    def call_service(self, client, service, payload):
        """Call a ROS service for a client (a worker thread); CallFailed says why not."""
        try:
            if not _allowed(self.service_call_re, service.name):
                raise srv.ServiceRefused('not in service_call_whitelist')
            type_name, cls = self.service_classes[service.name]
            if type_name != service.type:
                raise srv.ServiceRefused(f'now of type {type_name}')
            request = srv.decode_request(cls, 'cdr', payload)
            response = self.calls.call(cls, service.name, request, self.call_timeout)
        except Exception as exc:    # noqa: B902 - every failure goes back to the caller
            text = bounded(' '.join(str(exc).split()) or type(exc).__name__)
            self._limited_log(f'client {client.id}: {service.name}: call failed: {text}')
            raise CallFailed(f'{service.name}: {text}') from None
        return srv.encode_response(response)

    # --- parameters (worker threads)

    def get_parameters(self, client, names):
        """Every allowed parameter, or the named ones, of every node that answers."""
        return self.parameters.get_values(client, names) if self.parameters else []

    def set_parameters(self, client, params):
        """Set through the nodes' services; return the values afterwards."""
        return self.parameters.set_values(client, params) if self.parameters else []

    def on_parameters_subscribe(self, names):
        """Publish the changes of `names` from /parameter_events."""
        if self.parameters is not None:
            self.parameters.subscribe(names)

    def on_parameters_unsubscribe(self, names):
        """No client follows `names` any more."""
        if self.parameters is not None:
            self.parameters.unsubscribe(names)

    # --- connectionGraph

    def graph(self):
        """Return the publishers, subscribers and service providers of the ROS graph."""
        node = self.node
        published, subscribed = {}, {}
        for topic, _ in node.get_topic_names_and_types():
            if not self.include_hidden and _hidden(topic):
                continue
            pubs = sorted({_full_name(i) for i in node.get_publishers_info_by_topic(topic)})
            subs = sorted({_full_name(i) for i in node.get_subscriptions_info_by_topic(topic)})
            if pubs:
                published[topic] = pubs
            if subs:
                subscribed[topic] = subs
        services = {}
        for name, namespace in node.get_node_names_and_namespaces():
            try:
                offered = node.get_service_names_and_types_by_node(name, namespace)
            except Exception:   # noqa: B902 - the node left the graph between the two calls
                continue
            for service, _ in offered:
                if self.include_hidden or not _hidden(service):
                    services.setdefault(service, set()).add(_join(namespace, name))
        return Graph(published, subscribed, {s: sorted(ids) for s, ids in services.items()})

    # --- clientPublish (loop thread)

    def _refuse(self, client, text):
        """Tell the client whose input was refused why; a rate-limited log line."""
        text = bounded(text)
        self.server.status(client, protocol.WARNING, text)
        who = f'client {client.id}' if client is not None else 'server'
        self._limited_log(f'{who}: {text}')

    def on_client_advertise(self, client, channel):
        """Create a ROS publisher for a client channel; refuse it with a status."""
        try:
            if not _allowed(self.client_topic_re, channel.topic):
                raise cp.RejectedInput(f'{channel.topic}: not in client_topic_whitelist')
            if channel.encoding not in cp.ENCODINGS:
                raise cp.RejectedInput(f'{channel.topic}: encoding {channel.encoding!r} '
                                       f'(supported: {", ".join(cp.ENCODINGS)})')
            type_name, cls = cp.message_class_of(channel.schema_name)
            for name, types in self.node.get_topic_names_and_types():
                if name == channel.topic and type_name not in types:
                    raise cp.RejectedInput(f'{channel.topic}: carries {types[0]}, '
                                           f'not {type_name}')
            profiles = requested_profiles(self.node, channel.topic)
            publisher = self.node.create_publisher(
                cls, channel.topic, cp.publisher_profile(profiles, min(10, self.max_depth)))
        except cp.RejectedInput as exc:
            self._refuse(client, f'advertise refused: {exc}')
            return False
        self.publishers[(client.id, channel.id)] = (cls, publisher)
        self.node.get_logger().info(
            f'client {client.id} publishes {channel.topic} ({type_name}, {channel.encoding})')
        return True

    def on_client_unadvertise(self, client, channel):
        """Destroy the channel's publisher."""
        entry = self.publishers.pop((client.id, channel.id), None)
        if entry is not None:
            self.node.destroy_publisher(entry[1])

    def on_message_data(self, client, channel, payload):
        """Publish a client message, or refuse it (nothing of it is published)."""
        cls, publisher = self.publishers[(client.id, channel.id)]
        try:
            if len(payload) > self.max_client_bytes:
                raise cp.RejectedInput(f'message of {len(payload)} bytes over '
                                       f'max_client_message_bytes {self.max_client_bytes}')
            data = cp.to_cdr(channel.encoding, cls, payload)
        except cp.RejectedInput as exc:
            self._refuse(client, f'{channel.topic}: not published: {exc}')
            return
        publisher.publish(data)

    # --- assets (worker threads)

    def fetch_asset(self, client, uri):
        """Return the bytes of an allowed package:// or file:// URI; CallFailed otherwise."""
        if '..' in uri or not _allowed(self.asset_re, uri):
            self._limited_log(f'asset refused: {bounded(uri, 200)}')
            raise CallFailed(f'{bounded(uri, 200)}: not allowed')
        parsed = urlparse(uri)
        path = unquote(parsed.path)
        if parsed.scheme == 'package':
            from ament_index_python.packages import (get_package_share_directory,
                                                     PackageNotFoundError)
            try:
                path = os.path.join(get_package_share_directory(parsed.netloc),
                                    path.lstrip('/'))
            except PackageNotFoundError:
                raise CallFailed(f'{uri}: no package {parsed.netloc}') from None
        elif parsed.scheme != 'file':
            raise CallFailed(f'{uri}: only package:// and file:// URIs')
        try:
            with open(path, 'rb') as f:
                return f.read()
        except OSError as exc:
            raise CallFailed(f'{uri}: {exc.strerror or "cannot be read"}') from None

    def _limited_log(self, text):
        if self.log_limit.allow(text.split(':')[0])[0]:
            self.node.get_logger().warning(text)

    def check(self):
        """Raise the error that stopped the topic reader's thread, if any (main thread)."""
        if self.reader is not None:
            self.reader.check()

    def close(self):
        """Stop the topic reader, the server and the service-call helper."""
        if self.reader is not None:
            self.reader.close()
        self.server.stop()
        if self.calls is not None:
            self.calls.close()


def _join(namespace, name):
    return (namespace.rstrip('/') + '/' + name) if namespace else '/' + name


def _full_name(info):
    return _join(info.node_namespace, info.node_name)


class FoxgloveServerNode(Node):
    """
    The foxglove_server node: a FoxgloveBridge on a node of its own, for node_runtime.runner.

    The runner ticks discover() every DISCOVERY_PERIOD in its DeadlineLoop (runs_in_loop),
    in the thread that spins the executor, and closes the bridge before the node is
    destroyed.
    """

    runs_in_loop = True
    period = DISCOVERY_PERIOD

    def __init__(self):
        """Start the bridge; a port in use is a one-line ServerStartError."""
        super().__init__('foxglove_server')
        try:
            self.bridge = FoxgloveBridge(self)
        except ServerStartError as exc:
            self.destroy_node()
            raise ServerStartError(f'cannot start the Foxglove server on {exc}') from None
        except BaseException:
            self.destroy_node()
            raise
        self.get_logger().info(
            f'Foxglove WebSocket server on ws://{self.bridge.host}:{self.bridge.server.port} '
            f'(Foxglove: Open connection > Foxglove WebSocket; capabilities: '
            f'{", ".join(self.bridge.capabilities) or "none"})')
        self.bridge.discover()

    def tick(self, deadline):
        """Discover new topics; refresh the graph and services; raise a reader failure."""
        self.bridge.check()
        self.bridge.discover()

    def close(self):
        """Stop the WebSocket server."""
        self.bridge.close()


def main(argv=None):
    """
    Run the server until SIGINT/SIGTERM (node_runtime.runner); return the exit status.

    0 on a stop, 2 with one stderr line for a bad parameter, 1 with one line when the server
    cannot start (its port is in use).
    """
    from rclpy.experimental import EventsExecutor
    return runner.run_nodes([FoxgloveServerNode], ['foxglove_server'] + list(argv or []),
                            executor=EventsExecutor, config_errors=(TypeError,))
