# SPDX-License-Identifier: Apache-2.0
"""
Foxglove_server: every ROS 2 topic, live, over the Foxglove WebSocket protocol.

A foxglove-sdk WebSocket server (default 127.0.0.1:8765, parameters `host`, `port`) with
one channel per discovered topic: schema `pkg/msg/Type` in `ros2msg` encoding (full
definition, nested types included: ros2bag_mcap.schema), message encoding `cdr`, and the
bytes exactly as received from a raw subscription whose QoS matches the topic's publishers
(ros2bag_mcap.qos). Messages are only handed to the SDK while a client subscribes.

foxglove_bridge's capabilities, each switchable (`capabilities`): clientPublish
(client_publish), parameters and services through the ROS services (parameters, services,
ros_calls), connectionGraph, assets, time; transient-local topics are replayed to a client
that subscribes late.
"""

import collections
import os
import re
import threading
import time
from urllib.parse import unquote, urlparse

import foxglove
from foxglove.websocket import Capability, ConnectionGraph, StatusLevel
from node_runtime import runner
from node_runtime.bounded_text import bounded, RateLimiter
from node_runtime.qos_matching import requested_profiles
from rcl_interfaces.msg import (FloatingPointRange, IntegerRange, ParameterDescriptor,
                                ParameterType)
from rclpy.node import Node
from rclpy.qos import DurabilityPolicy
from ros2bag_mcap import qos as qos_util
from ros2bag_mcap.schema import DefinitionNotFound, message_class, message_definition

from . import client_publish as cp
from . import services as srv
from .parameters import Parameters
from .ros_calls import RosCalls

DISCOVERY_PERIOD = 0.5
GRAPH_PERIOD = 2.0
DEPTH = 50
REPLAY_DELAY_S = 0.05
CAPABILITIES = {
    'clientPublish': Capability.ClientPublish,
    'connectionGraph': Capability.ConnectionGraph,
    'parameters': Capability.Parameters,
    'services': Capability.Services,
    'time': Capability.Time,
}
# foxglove_bridge's: meshes, textures and robot descriptions of installed packages.
DEFAULT_ASSET_ALLOWLIST = [
    r'^package://(?:[-\w%]+/)*[-\w%.]+\.(?:dae|fbx|glb|gltf|jpeg|jpg|mtl|obj|png|stl|tif|'
    r'tiff|urdf|webp|xacro)$']


class ServerStartError(RuntimeError):
    """The WebSocket server could not start (e.g. its port is in use)."""


def _descriptor(text, kind, integer_range=None, float_range=None, read_only=True):
    d = ParameterDescriptor(description=text, type=kind, read_only=read_only)
    if integer_range:
        d.integer_range = [IntegerRange(from_value=integer_range[0], to_value=integer_range[1],
                                        step=1)]
    if float_range:
        d.floating_point_range = [FloatingPointRange(from_value=float_range[0],
                                                     to_value=float_range[1])]
    return d


STRINGS = ParameterType.PARAMETER_STRING_ARRAY
PARAMETERS = {
    # name: (default, descriptor)
    'port': (8765, _descriptor('WebSocket port (0: any free port)',
                               ParameterType.PARAMETER_INTEGER, integer_range=(0, 65535))),
    'address': ('127.0.0.1', _descriptor('address to bind (0.0.0.0: every interface)',
                                         ParameterType.PARAMETER_STRING)),
    'host': ('', _descriptor('deprecated alias of address (wins when set)',
                             ParameterType.PARAMETER_STRING)),
    'topic_whitelist': (['.*'], _descriptor('regexes of the topics streamed', STRINGS)),
    'service_whitelist': (['.*'], _descriptor('regexes of the services offered', STRINGS)),
    'param_whitelist': (['.*'], _descriptor('regexes of the parameters offered', STRINGS)),
    'client_topic_whitelist': (['.*'], _descriptor(
        'regexes of the topics a client may publish on', STRINGS)),
    'include_hidden': (False, _descriptor('also stream topics and services with a _ component',
                                          ParameterType.PARAMETER_BOOL)),
    'max_qos_depth': (25, _descriptor('largest subscription/publisher history depth',
                                      ParameterType.PARAMETER_INTEGER,
                                      integer_range=(1, 10000))),
    'capabilities': (sorted(CAPABILITIES) + ['assets', 'parametersSubscribe'], _descriptor(
        'capabilities offered: clientPublish, parameters, parametersSubscribe, services, '
        'connectionGraph, assets, time', STRINGS)),
    'asset_uri_allowlist': (DEFAULT_ASSET_ALLOWLIST, _descriptor(
        'regexes of the package:// and file:// URIs served as assets', STRINGS)),
    'max_client_message_bytes': (1 << 20, _descriptor(
        'largest client message published [bytes]', ParameterType.PARAMETER_INTEGER,
        integer_range=(1, 1 << 28))),
    'call_timeout_s': (2.0, _descriptor(
        'longest wait for a node to answer a parameter or service call made for a client [s]',
        ParameterType.PARAMETER_DOUBLE, float_range=(0.05, 60.0))),
}


def _regexes(node, name):
    try:
        return [re.compile(p) for p in node.get_parameter(name).value]
    except re.error as exc:
        raise ValueError(f'{name}: bad regex: {exc}') from None


def _allowed(regexes, name):
    return any(r.fullmatch(name) for r in regexes)


def _hidden(name):
    return any(p.startswith('_') for p in name.split('/'))


class FoxgloveBridge:

    def __init__(self, node):
        self.node = node
        for name, (default, descriptor) in PARAMETERS.items():
            node.declare_parameter(name, default, descriptor)
        value = (lambda n: node.get_parameter(n).value)
        self.host = value('host') or value('address')
        self.port = int(value('port'))
        self.include_hidden = bool(value('include_hidden'))
        self.max_depth = int(value('max_qos_depth'))
        self.max_client_bytes = int(value('max_client_message_bytes'))
        self.topic_re = _regexes(node, 'topic_whitelist')
        self.service_re = _regexes(node, 'service_whitelist')
        self.client_topic_re = _regexes(node, 'client_topic_whitelist')
        self.asset_re = _regexes(node, 'asset_uri_allowlist')
        self.capability_names = set(value('capabilities'))
        unknown = self.capability_names - set(CAPABILITIES) - {'assets', 'parametersSubscribe'}
        if unknown:
            raise ValueError(f'capabilities: unknown {sorted(unknown)}')
        capabilities = [c for n, c in CAPABILITIES.items() if n in self.capability_names]
        self.call_timeout = float(value('call_timeout_s'))
        self.param_re = _regexes(node, 'param_whitelist')
        self.channels = {}
        self.latched = {}            # topic -> deque of the last messages (transient local)
        self.services = {}           # name -> type advertised to clients
        self.subscriptions = {}
        self.skipped = set()
        self.skipped_services = set()
        self.client_channels = {}    # (client id, channel id) -> (encoding, class, publisher)
        self.log_limit = RateLimiter(period_s=5.0)
        self.graph_key = None
        self.next_graph = 0.0
        self.clock_sub = None
        self.calls = None
        self.parameters = None
        if self.capability_names & {'parameters', 'services'}:
            self.calls = RosCalls()
        if 'parameters' in self.capability_names:
            self.parameters = Parameters(
                self.calls, lambda name: _allowed(self.param_re, name), self.call_timeout,
                self._refuse, node.get_fully_qualified_name())
        try:
            self.server = foxglove.start_server(
                name='foxglove_live', host=self.host, port=self.port,
                capabilities=capabilities, server_listener=self,
                supported_encodings=list(cp.ENCODINGS),
                asset_handler=self.asset if 'assets' in self.capability_names else None)
        except Exception as exc:  # the SDK raises RuntimeError/OSError kinds on bind errors
            detail = ' '.join(str(exc).split()) or type(exc).__name__
            if self.calls is not None:
                self.calls.close()
            raise ServerStartError(f'ws://{self.host}:{self.port}: {detail}') from None
        if self.parameters is not None:
            self.parameters.publish = self.server.publish_parameter_values
        if 'time' in self.capability_names and node.get_parameter('use_sim_time').value:
            from rosgraph_msgs.msg import Clock
            self.clock_sub = node.create_subscription(
                Clock, '/clock', self._on_clock, qos_util.matching_profile([], 10))

    # --- topics streamed to clients

    def discover(self):
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
            profile = qos_util.matching_profile(offered, min(DEPTH, self.max_depth))
            latched = None
            if profile.durability == DurabilityPolicy.TRANSIENT_LOCAL:
                depth = min(max(p.depth for p in offered) or 1, self.max_depth)
                latched = self.latched[topic] = collections.deque(maxlen=depth)
            self.subscriptions[topic] = self.node.create_subscription(
                msg_type, topic, self._callback(channel, latched), profile, raw=True)
            self.node.get_logger().info(f'streaming {topic} ({type_name})')
        now = time.monotonic()
        if now >= self.next_graph:
            self.next_graph = now + GRAPH_PERIOD
            if 'connectionGraph' in self.capability_names:
                self.publish_graph()
            if 'services' in self.capability_names:
                self.advertise_services()

    @staticmethod
    def _callback(channel, latched):
        def on_message(data):
            log_time = time.time_ns()
            if latched is not None:
                latched.append((data, log_time))
            if channel.has_sinks():
                channel.log(data, log_time=log_time)
        return on_message

    # --- transient-local replay

    def on_subscribe(self, client, channel):
        """Send a late subscriber the last messages of a transient-local topic."""
        latched = self.latched.get(channel.topic)
        if not latched:
            return
        fox_channel = self.channels[channel.topic]
        messages = list(latched)

        def replay():
            # After the callback returned: the SDK has registered the subscription by then.
            time.sleep(REPLAY_DELAY_S)
            for data, log_time in messages:
                fox_channel.log(data, log_time=log_time)
        threading.Thread(target=replay, name='foxglove_replay', daemon=True).start()

    # --- services

    def advertise_services(self):
        """Advertise the graph's services to clients; withdraw the ones that left."""
        found = {}
        for name, types in self.node.get_service_names_and_types():
            if not self.include_hidden and _hidden(name):
                continue
            if not _allowed(self.service_re, name) or not types:
                continue
            found[name] = types[0]
        gone = [n for n, t in self.services.items() if found.get(n) != t]
        if gone:
            for name in gone:
                del self.services[name]
            self.server.remove_services(gone)
        new = []
        for name, type_name in sorted(found.items()):
            if name in self.services or name in self.skipped_services:
                continue
            try:
                cls = srv.service_class(type_name)
                schema = srv.schema(type_name)
            except DefinitionNotFound as exc:
                self.node.get_logger().warning(f'not offering {name}: {exc}')
                self.skipped_services.add(name)
                continue
            new.append(foxglove.Service(name, schema=schema,
                                        handler=self._service_handler(name, cls)))
            self.services[name] = type_name
        if new:
            try:
                self.server.add_services(new)
            except Exception as exc:    # the SDK refuses the batch (e.g. a name it still has)
                self._limited_log(f'services not advertised: {" ".join(str(exc).split())}')
                for service in new:
                    self.services.pop(service.name, None)

    def _service_handler(self, name, cls):
        def handle(request):
            """Run on an SDK worker thread; an exception becomes serviceCallFailure."""
            try:
                ros_request = srv.decode_request(cls, request.encoding, request.payload)
                response = self.calls.call(cls, name, ros_request, self.call_timeout)
            except Exception as exc:
                text = bounded(' '.join(str(exc).split()) or type(exc).__name__)
                self._limited_log(f'client {request.client_id}: {name}: call failed: {text}')
                raise RuntimeError(f'{name}: {text}') from None
            return srv.encode_response(response)
        return handle

    # --- parameters (ServerListener callbacks, on the SDK's worker threads)

    def on_get_parameters(self, client, param_names, request_id=None):
        return self.parameters.get_values(client, list(param_names)) if self.parameters else []

    def on_set_parameters(self, client, parameters, request_id=None):
        return self.parameters.set_values(client, list(parameters)) if self.parameters else []

    def on_parameters_subscribe(self, param_names):
        if self.parameters is not None:
            self.parameters.subscribe(param_names)

    def on_parameters_unsubscribe(self, param_names):
        if self.parameters is not None:
            self.parameters.unsubscribe(param_names)

    def _on_clock(self, msg):
        self.server.broadcast_time(msg.clock.sec * 1_000_000_000 + msg.clock.nanosec)

    # --- connectionGraph

    def publish_graph(self):
        """Publish the graph's publishers, subscribers and services when they changed."""
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
            full = _join(namespace, name)
            try:
                offered = node.get_service_names_and_types_by_node(name, namespace)
            except Exception:   # the node left the graph between the two calls
                continue
            for service, _ in offered:
                if self.include_hidden or not _hidden(service):
                    services.setdefault(service, []).append(full)
        key = repr((published, subscribed, services))
        if key == self.graph_key:
            return
        self.graph_key = key
        graph = ConnectionGraph()
        for topic, ids in published.items():
            graph.set_published_topic(topic, ids)
        for topic, ids in subscribed.items():
            graph.set_subscribed_topic(topic, ids)
        for service, ids in services.items():
            graph.set_advertised_service(service, sorted(ids))
        self.server.publish_connection_graph(graph)

    # --- clientPublish (ServerListener callbacks, called from the SDK's threads)

    def _refuse(self, client, text):
        """Tell the clients why an input was refused; a rate-limited log line."""
        text = bounded(text)
        who = f'client {client.id}' if client is not None else 'server'
        self.server.publish_status(f'{who}: {text}', StatusLevel.Warning)
        if self.log_limit.allow(text.split(':')[0])[0]:
            self.node.get_logger().warning(f'{who}: {text}')

    def on_client_advertise(self, client, channel):
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
            return
        self.client_channels[(client.id, channel.id)] = (channel.encoding, cls, publisher)
        self.node.get_logger().info(
            f'client {client.id} publishes {channel.topic} ({type_name}, {channel.encoding})')

    def on_client_unadvertise(self, client, client_channel_id):
        entry = self.client_channels.pop((client.id, client_channel_id), None)
        if entry is not None and not any(e[2] is entry[2] for e in self.client_channels.values()):
            self.node.destroy_publisher(entry[2])

    def on_message_data(self, client, client_channel_id, data):
        entry = self.client_channels.get((client.id, client_channel_id))
        if entry is None:
            return      # refused at advertise: the client was told then
        encoding, cls, publisher = entry
        try:
            if len(data) > self.max_client_bytes:
                raise cp.RejectedInput(f'message of {len(data)} bytes over '
                                       f'max_client_message_bytes {self.max_client_bytes}')
            payload = cp.to_cdr(encoding, cls, data)
        except cp.RejectedInput as exc:
            self._refuse(client, f'{publisher.topic_name}: not published: {exc}')
            return
        publisher.publish(payload)

    # --- assets

    def asset(self, uri):
        """Return the bytes of an allowed package:// or file:// URI, None otherwise."""
        if '..' in uri or not _allowed(self.asset_re, uri):
            self._limited_log(f'asset refused: {bounded(uri, 200)}')
            return None
        parsed = urlparse(uri)
        path = unquote(parsed.path)
        if parsed.scheme == 'package':
            from ament_index_python.packages import (get_package_share_directory,
                                                     PackageNotFoundError)
            try:
                path = os.path.join(get_package_share_directory(parsed.netloc),
                                    path.lstrip('/'))
            except PackageNotFoundError:
                return None
        elif parsed.scheme != 'file':
            return None
        try:
            with open(path, 'rb') as f:
                return f.read()
        except OSError:
            return None

    def _limited_log(self, text):
        if self.log_limit.allow(text.split(':')[0])[0]:
            self.node.get_logger().warning(text)

    def close(self):
        for channel in self.channels.values():
            channel.close()
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
            '(Foxglove: Open connection > Foxglove WebSocket)')
        self.bridge.discover()

    def tick(self, deadline):
        """Discover new topics and drop the channels of gone ones."""
        self.bridge.discover()

    def close(self):
        """Close the channels and stop the WebSocket server."""
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
