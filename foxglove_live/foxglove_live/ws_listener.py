# SPDX-License-Identifier: Apache-2.0
"""
What the WebSocket side and the ROS side of foxglove_server tell each other (no ROS).

The channels and services as advertised, the connection graph, the two errors, and
ServerListener: every call the WebSocket server makes into the ROS side.
"""

from typing import Any, Dict, List, Mapping, NamedTuple, Set

from .ws_client import Client, ClientChannel


class ServerStartError(RuntimeError):
    """The WebSocket server could not start (e.g. its port is in use)."""


class CallFailed(RuntimeError):
    """A service call, parameter request or asset fetch failed; the text goes to the client."""


class Channel(NamedTuple):
    """A server channel (a ROS topic) as advertised."""

    id: int             # noqa: A003 - the protocol's field name
    topic: str
    encoding: str
    schema_name: str
    schema: str
    schema_encoding: str

    def advertisement(self) -> Dict[str, Any]:
        """Return the channel as an `advertise` entry."""
        return {'id': self.id, 'topic': self.topic, 'encoding': self.encoding,
                'schemaName': self.schema_name, 'schema': self.schema,
                'schemaEncoding': self.schema_encoding}


class Service(NamedTuple):
    """A ROS service as advertised: request and response in `encoding` with ros2msg schemas."""

    id: int             # noqa: A003 - the protocol's field name
    name: str
    type: str           # noqa: A003 - the protocol's field name
    request_schema: str
    response_schema: str
    encoding: str = 'cdr'

    def advertisement(self) -> Dict[str, Any]:
        """Return the service as an `advertiseServices` entry (both schema forms)."""
        def part(suffix: str, text: str) -> Dict[str, str]:
            return {'encoding': self.encoding, 'schemaName': f'{self.type}_{suffix}',
                    'schemaEncoding': 'ros2msg', 'schema': text}
        # request/response: ws-protocol since 2024; requestSchema/responseSchema: the
        # older clients (Studio 1.x), which read only these.
        return {'id': self.id, 'name': self.name, 'type': self.type,
                'request': part('Request', self.request_schema),
                'response': part('Response', self.response_schema),
                'requestSchema': self.request_schema, 'responseSchema': self.response_schema}


class Graph(NamedTuple):
    """The connection graph: name -> sorted node names."""

    published: Mapping[str, List[str]]
    subscribed: Mapping[str, List[str]]
    services: Mapping[str, List[str]]


EMPTY_GRAPH = Graph({}, {}, {})


class ServerListener:
    """
    What the server asks of the ROS side. Every call the server makes is defined here.

    The defaults refuse or ignore; the bridge overrides what its capabilities serve.
    Calls marked *worker* run on the worker pool and may wait on ROS; the others run on the
    loop and must return quickly. Raising CallFailed sends its text to the client.
    """

    def on_client_advertise(self, client: Client, channel: ClientChannel) -> bool:
        """Create what publishing on `channel` needs; False if refused (client told)."""
        return False

    def on_client_unadvertise(self, client: Client, channel: ClientChannel) -> None:
        """Client stopped publishing on `channel` (or left)."""

    def on_message_data(self, client: Client, channel: ClientChannel,
                        payload: bytes) -> None:
        """Publish a client's message."""

    def call_service(self, client: Client, service: Service, payload: bytes) -> bytes:
        """*worker* Call `service` with a request payload; return the response payload."""
        raise CallFailed(f'{service.name}: services are not served')

    def get_parameters(self, client: Client, names: List[str]) -> List[Dict[str, Any]]:
        """*worker* Return parameter entries ({name, value, type?}); every one if no names."""
        return []

    def set_parameters(self, client: Client,
                       parameters: List[Dict[str, Any]]) -> List[Dict[str, Any]]:
        """*worker* Set parameters; return their values afterwards."""
        return []

    def on_parameters_subscribe(self, names: Set[str]) -> None:
        """Publish the changes of `names`: the first client subscribed to them."""

    def on_parameters_unsubscribe(self, names: Set[str]) -> None:
        """Stop publishing `names`: the last client subscribed to them left."""

    def fetch_asset(self, client: Client, uri: str) -> bytes:
        """*worker* Return the bytes of `uri`."""
        raise CallFailed(f'{uri}: assets are not served')

    def on_connection_graph_subscribe(self) -> None:
        """Keep the graph current: the first client subscribed to it."""

    def on_connection_graph_unsubscribe(self) -> None:
        """Stop following the graph: its last subscriber left."""
