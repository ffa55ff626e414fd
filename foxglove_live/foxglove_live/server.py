# SPDX-License-Identifier: Apache-2.0
"""
Foxglove_server: every ROS 2 topic, live, over the Foxglove WebSocket protocol.

A ws-protocol v1 server (ws_server, on `websockets`; default 127.0.0.1:8765) that accepts
both subprotocol names, `foxglove.websocket.v1` (Foxglove Studio 1.x, Lichtblick up to
1.21) and `foxglove.sdk.v1` (current Foxglove and Lichtblick). One channel per discovered
topic: schema `pkg/msg/Type` in `ros2msg` encoding (full definition, nested types
included: ros2bag_mcap.schema), message encoding `cdr`, and the bytes exactly as received
from a raw subscription whose QoS matches the topic's publishers (ros2bag_mcap.qos).

foxglove_bridge's capabilities, each switchable (`capabilities`, `read_only`; settings),
each the job of a module of its own, which FoxgloveBridge composes: the streamed topics and
time (topics), clientPublish (client_publish), parameters and services through the ROS
services (parameters, services, ros_calls), connectionGraph (connection_graph, with the
services' providers) and assets (assets); time is advertised only with use_sim_time (then
/clock is sent as the server's time). Transient-local topics are replayed to the one
subscription that joins late; a refused input is answered with a status to the client
that sent it.

The streamed topics are taken in batches (node_runtime.batch, issue 40) in a thread of their
own: one wake-up at most every topics.BATCH_INTERVAL takes every sample waiting on every
topic, instead of one executor wake-up per message (2000 a second with the HB50 stack). The
node's executor serves the rest (parameters, /clock, the discovery tick). Each message's log
time is its DDS receive time (with use_sim_time: the ROS clock when its batch is taken).
"""


import os
import time
from typing import Any, Dict, List, Optional, Set

from node_runtime import parameters, runner
from node_runtime.bounded_text import bounded, RateLimiter
from rclpy.node import Node

from . import client_publish as cp
from . import protocol
from .assets import fetch_asset
from .connection_graph import ros_graph
from .parameters import Parameters
from .ros_calls import RosCalls
from .services import RosServices
from .settings import allowed, offered_capabilities, PARAMETERS, patterns
from .topics import TopicStreamer
from .ws_client import Client, ClientChannel
from .ws_listener import Graph, ServerListener, ServerStartError, Service
from .ws_server import WsServer

__all__ = ['FoxgloveBridge', 'FoxgloveServerNode', 'ServerStartError', 'main']

DISCOVERY_PERIOD = 0.5
GRAPH_PERIOD = 2.0


class FoxgloveBridge(ServerListener):
    """The ROS side of the server: its settings, composing one part per capability."""

    def __init__(self, node: Node) -> None:
        """Declare the parameters, start the server; ServerStartError if it cannot bind."""
        self.node = node
        values = parameters.declare(node, PARAMETERS)
        self.host: str = values['host'] or values['address']
        self.include_hidden: bool = values['include_hidden']
        max_depth: int = values['max_qos_depth']
        call_timeout: float = values['call_timeout_s']
        topic_re = patterns(values, 'topic_whitelist')
        service_re = patterns(values, 'service_whitelist')
        service_call_re = patterns(values, 'service_call_whitelist')
        client_topic_re = patterns(values, 'client_topic_whitelist')
        self.asset_re = patterns(values, 'asset_uri_allowlist')
        param_re = patterns(values, 'param_whitelist')
        param_write_re = patterns(values, 'param_write_whitelist')
        sim_time = bool(node.get_parameter('use_sim_time').value)
        self.capabilities = offered_capabilities(values['capabilities'], values['read_only'],
                                                 sim_time)
        self.log_limit = RateLimiter(period_s=5.0)
        self.next_graph = 0.0
        self.calls: Optional[RosCalls] = None
        self.parameters: Optional[Parameters] = None
        self.services: Optional[RosServices] = None
        if {protocol.PARAMETERS, protocol.SERVICES} & set(self.capabilities):
            self.calls = RosCalls()
        if self.calls is not None and protocol.PARAMETERS in self.capabilities:
            self.parameters = Parameters(
                self.calls, lambda name: allowed(param_re, name), call_timeout,
                self._refuse, node.get_fully_qualified_name(),
                writable=lambda name: allowed(param_write_re, name))
        if self.calls is not None:
            self.services = RosServices(node, self.calls, service_re, service_call_re,
                                        self.include_hidden, call_timeout, self._limited_log)
        self.publishers = cp.ClientPublishers(node, client_topic_re, max_depth,
                                              values['max_client_message_bytes'],
                                              self._refuse)
        self.server = WsServer(
            self, 'foxglove_live', self.capabilities, supported_encodings=cp.ENCODINGS,
            metadata={'ROS_DISTRO': os.environ.get('ROS_DISTRO', '')},
            warn=self._limited_log, max_message_bytes=values['max_client_message_bytes'])
        self.topics = TopicStreamer(node, self.server, topic_re, self.include_hidden,
                                    max_depth, sim_time)
        try:
            self.server.start(self.host, values['port'])
        except ServerStartError:
            if self.calls is not None:
                self.calls.close()
            raise
        if self.parameters is not None:
            self.parameters.publish = self.server.publish_parameter_values
        self.topics.start(send_time=protocol.TIME in self.capabilities)

    def discover(self) -> None:
        """Stream new topics; every GRAPH_PERIOD refresh the graph and the services."""
        self.topics.discover()
        now = time.monotonic()
        if now >= self.next_graph:
            self.next_graph = now + GRAPH_PERIOD
            if protocol.CONNECTION_GRAPH in self.capabilities:
                self.server.publish_connection_graph(self.graph())
            if protocol.SERVICES in self.capabilities:
                self.advertise_services()

    def advertise_services(self) -> None:
        """Advertise the graph's services to clients; withdraw the ones that left."""
        if self.services is not None:
            self.server.set_services(self.services.offered())

    def graph(self) -> Graph:
        """Return the publishers, subscribers and service providers of the ROS graph."""
        return ros_graph(self.node, self.include_hidden)

    # --- ServerListener: services and parameters (worker threads)

    def call_service(self, client: Client, service: Service, payload: bytes) -> bytes:
        """Call a ROS service for a client (a worker thread); CallFailed says why not."""
        if self.services is None:
            return super().call_service(client, service, payload)
        return self.services.call(client.id, service, payload)

    def get_parameters(self, client: Client, names: List[str]) -> List[Dict[str, Any]]:
        """Every allowed parameter, or the named ones, of every node that answers."""
        return self.parameters.get_values(client, names) if self.parameters else []

    def set_parameters(self, client: Client,
                       params: List[Dict[str, Any]]) -> List[Dict[str, Any]]:
        """Set through the nodes' services; return the values afterwards."""
        return self.parameters.set_values(client, params) if self.parameters else []

    def on_parameters_subscribe(self, names: Set[str]) -> None:
        """Publish the changes of `names` from /parameter_events."""
        if self.parameters is not None:
            self.parameters.subscribe(names)

    def on_parameters_unsubscribe(self, names: Set[str]) -> None:
        """No client follows `names` any more."""
        if self.parameters is not None:
            self.parameters.unsubscribe(names)

    # --- ServerListener: clientPublish (loop thread)

    def on_client_advertise(self, client: Client, channel: ClientChannel) -> bool:
        """Create a ROS publisher for a client channel; refuse it with a status."""
        return self.publishers.advertise(client, channel)

    def on_client_unadvertise(self, client: Client, channel: ClientChannel) -> None:
        """Destroy the channel's publisher."""
        self.publishers.unadvertise(client, channel)

    def on_message_data(self, client: Client, channel: ClientChannel,
                        payload: bytes) -> None:
        """Publish a client message, or refuse it (nothing of it is published)."""
        self.publishers.publish(client, channel, payload)

    # --- ServerListener: assets (worker threads)

    def fetch_asset(self, client: Client, uri: str) -> bytes:
        """Return the bytes of an allowed package:// or file:// URI; CallFailed otherwise."""
        return fetch_asset(uri, self.asset_re, self._limited_log)

    def _refuse(self, client: Optional[Client], text: str) -> None:
        """Tell the client whose input was refused why; a rate-limited log line."""
        text = bounded(text)
        self.server.status(client, protocol.WARNING, text)
        who = f'client {client.id}' if client is not None else 'server'
        self._limited_log(f'{who}: {text}')

    def _limited_log(self, text: str) -> None:
        if self.log_limit.allow(text.split(':')[0])[0]:
            self.node.get_logger().warning(text)

    def check(self) -> None:
        """Raise the error that stopped the topic reader's thread, if any (main thread)."""
        self.topics.check()

    def close(self) -> None:
        """Stop the topic reader, the server and the service-call helper."""
        self.topics.close()
        self.server.stop()
        if self.calls is not None:
            self.calls.close()


class FoxgloveServerNode(Node):  # type: ignore[misc,unused-ignore]  # rclpy is Any here
    """
    The foxglove_server node: a FoxgloveBridge on a node of its own, for node_runtime.runner.

    The runner ticks discover() every DISCOVERY_PERIOD in its DeadlineLoop (runs_in_loop),
    in the thread that spins the executor, and closes the bridge before the node is
    destroyed.
    """

    runs_in_loop = True
    period = DISCOVERY_PERIOD

    def __init__(self) -> None:
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

    def tick(self, deadline: float) -> None:
        """Discover new topics; refresh the graph and services; raise a reader failure."""
        self.bridge.check()
        self.bridge.discover()

    def close(self) -> None:
        """Stop the WebSocket server."""
        self.bridge.close()


def main(argv: Optional[List[str]] = None) -> int:
    """
    Run the server until SIGINT/SIGTERM (node_runtime.runner); return the exit status.

    0 on a stop, 2 with one stderr line for a bad parameter, 1 with one line when the server
    cannot start (its port is in use).
    """
    from rclpy.experimental import EventsExecutor
    return runner.run_nodes([FoxgloveServerNode], ['foxglove_server'] + list(argv or []),
                            executor=EventsExecutor, config_errors=(TypeError,))
