# SPDX-License-Identifier: Apache-2.0
"""
The WebSocket side of foxglove_server: ws-protocol v1 on `websockets`, no ROS.

One asyncio loop in its own thread carries every connection. It accepts both subprotocol
names (protocol.SUBPROTOCOLS) and speaks the same protocol under each. What it owns:
channels and their subscriptions, the last messages of latched channels (replayed to the
one subscription that joins late), services, the connection graph (sent whole to a new
subscriber, then as differences), parameter subscriptions, and one outgoing queue per
client. Status messages go to the client they concern; only server-wide news is broadcast.

Threads: `log`, `broadcast_time`, `add_channel` and the other public methods may be called
from any thread (the ROS executor's). A message is queued per subscribed client; the loop is
woken once per batch (Flusher) and writes each client's batch in one write, so a slow or
dead client only fills (and then drops from) its own bounded queue; the other clients and
the ROS side never wait for it.
Calls that wait on ROS (parameters, services, assets) run on a small worker pool, bounded per
client, never on the loop.
"""

import asyncio
import collections
import concurrent.futures
import itertools
import json
import logging
import threading
import time
from typing import (Any, Callable, Deque, Dict, Iterable, List, Mapping, NamedTuple, Optional,
                    Set, Tuple, Union)

from websockets.asyncio.server import serve, ServerConnection
from websockets.exceptions import ConnectionClosed
from websockets.protocol import State

from . import protocol as p

# A client's data queue (messages and time) holds at most this many frames; when its socket
# cannot keep up the oldest are dropped (counted and logged), control messages never.
MAX_QUEUED_FRAMES = 4096
# Status messages waiting for one client: a client that floods bad input and does not read
# keeps only the newest (they only explain refusals).
MAX_QUEUED_STATUS = 64
# Replies (JSON answers, service responses, assets) waiting for one client: past this the
# client is sending requests without reading the answers, and it is disconnected.
MAX_QUEUED_REPLIES = 10000
# Calls that wait on ROS (parameters, services, assets) one client may have in flight.
MAX_CALLS_PER_CLIENT = 8
# Bytes a client's socket may buffer; over it, its messages wait in (and drop from) its queue.
WRITE_LIMIT = 1 << 20
# A batch: how long after its first message the queues are written [s]. An app draws at
# 60 Hz at most; 5 ms batches 10 messages of the HB50 stack's 2000 a second in one wake-up.
FLUSH_DELAY_S = 0.005
# How soon a client whose socket was full is tried again [s].
RETRY_S = 0.02
CLOSE_TIMEOUT_S = 1.0


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


class ClientChannel(NamedTuple):
    """A channel a client advertised for publishing."""

    id: int             # noqa: A003 - the protocol's field name
    topic: str
    encoding: str
    schema_name: str


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

    def on_client_advertise(self, client: 'Client', channel: ClientChannel) -> bool:
        """Create what publishing on `channel` needs; False if refused (client told)."""
        return False

    def on_client_unadvertise(self, client: 'Client', channel: ClientChannel) -> None:
        """Client stopped publishing on `channel` (or left)."""

    def on_message_data(self, client: 'Client', channel: ClientChannel,
                        payload: bytes) -> None:
        """Publish a client's message."""

    def call_service(self, client: 'Client', service: Service, payload: bytes) -> bytes:
        """*worker* Call `service` with a request payload; return the response payload."""
        raise CallFailed(f'{service.name}: services are not served')

    def get_parameters(self, client: 'Client', names: List[str]) -> List[Dict[str, Any]]:
        """*worker* Return parameter entries ({name, value, type?}); every one if no names."""
        return []

    def set_parameters(self, client: 'Client',
                       parameters: List[Dict[str, Any]]) -> List[Dict[str, Any]]:
        """*worker* Set parameters; return their values afterwards."""
        return []

    def on_parameters_subscribe(self, names: Set[str]) -> None:
        """Publish the changes of `names`: the first client subscribed to them."""

    def on_parameters_unsubscribe(self, names: Set[str]) -> None:
        """Stop publishing `names`: the last client subscribed to them left."""

    def fetch_asset(self, client: 'Client', uri: str) -> bytes:
        """*worker* Return the bytes of `uri`."""
        raise CallFailed(f'{uri}: assets are not served')

    def on_connection_graph_subscribe(self) -> None:
        """Keep the graph current: the first client subscribed to it."""

    def on_connection_graph_unsubscribe(self) -> None:
        """Stop following the graph: its last subscriber left."""


class Client:
    """One connection: its subscriptions, its channels and its outgoing queues."""

    def __init__(self, client_id: int, ws: ServerConnection, flush: 'Flusher',
                 warn: Callable[[str], None] = lambda text: None) -> None:
        """Wrap `ws` with queues that `flush` empties into its socket."""
        self.id = client_id
        self.ws = ws
        self.address = _address(ws)
        self.subscriptions: Dict[int, int] = {}        # subscription id -> channel id
        self.channels: Dict[int, ClientChannel] = {}   # client channel id -> channel
        self.parameter_names: Set[str] = set()
        self.graph = False
        self.calls_in_flight = 0
        self.dropped = 0
        self._reported = 0
        self.warn = warn
        self._flusher = flush
        self._control: Deque[Union[str, bytes]] = collections.deque()
        self._status: Deque[str] = collections.deque(maxlen=MAX_QUEUED_STATUS)
        self._data: Deque[bytes] = collections.deque(maxlen=MAX_QUEUED_FRAMES)
        self.closed = False

    def __repr__(self) -> str:
        """Name the client as the logs do."""
        return f'client {self.id} ({self.address})'

    def send_json(self, message: Mapping[str, Any]) -> None:
        """Queue a text message (never dropped); any thread."""
        self._reply(json.dumps(message, separators=(',', ':')))

    def send_control(self, frame: bytes) -> None:
        """Queue a binary reply (service response, asset) that is never dropped; any thread."""
        self._reply(frame)

    def _reply(self, item: Union[str, bytes]) -> None:
        if len(self._control) >= MAX_QUEUED_REPLIES:
            self._flusher.disconnect(self, f'{MAX_QUEUED_REPLIES} replies unread')
            return
        self._control.append(item)
        self._flusher.request()

    def send_data(self, frame: bytes) -> None:
        """Queue a message or time frame; the oldest is dropped when the queue is full."""
        data = self._data
        if len(data) == MAX_QUEUED_FRAMES:
            self.dropped += 1
        data.append(frame)
        self._flusher.request()

    def status(self, level: int, message: str) -> None:
        """Send this client a status message (the newest MAX_QUEUED_STATUS are kept)."""
        self._status.append(json.dumps({'op': 'status', 'level': level, 'message': message},
                                       separators=(',', ':')))
        self._flusher.request()

    def abandon(self) -> None:
        """Drop everything queued (the connection is being closed)."""
        self._control.clear()
        self._status.clear()
        self._data.clear()

    def flush(self) -> bool:
        """
        Write what is queued into the socket in one write (loop thread).

        Returns False when the socket's buffer is over WRITE_LIMIT (the peer does not read):
        the data stays queued, and keeps only the newest MAX_QUEUED_FRAMES.
        """
        control, status, data = self._control, self._status, self._data
        if not control and not status and not data:
            return True
        ws = self.ws
        if ws.protocol.state is not State.OPEN:
            control.clear()
            status.clear()
            data.clear()
            return True
        transport = ws.transport
        if transport.get_write_buffer_size() > WRITE_LIMIT:
            return False
        protocol = ws.protocol
        while control:
            item = control.popleft()
            if isinstance(item, str):
                protocol.send_text(item.encode())
            else:
                protocol.send_binary(item)
        while status:
            protocol.send_text(status.popleft().encode())
        while data:
            protocol.send_binary(data.popleft())
        chunks = protocol.data_to_send()
        # One write for the batch (asyncio would make a send() call of every frame); b''
        # is websockets' end-of-stream mark, which only a closing connection queues.
        transport.write(b''.join(chunks))
        if any(not chunk for chunk in chunks):     # as websockets' own send_data() does
            if transport.can_write_eof():
                transport.write_eof()
            else:
                transport.close()
        if self.dropped != self._reported:
            self.warn(f'client {self.id}: its connection cannot keep up; '
                      f'{self.dropped - self._reported} messages dropped')
            self._reported = self.dropped
        return True


class Flusher:
    """
    Empties every client's queues a short while after the first message of a batch.

    The ROS side queues messages from its own thread; waking the loop for each (and writing
    each to the socket) cost more than the message. One wake-up every FLUSH_DELAY_S at most
    carries every message queued meanwhile, to every client, in one write per client.
    """

    def __init__(self, clients: Dict[int, Client]) -> None:
        """Flush the clients of `clients` (the server's table)."""
        self.clients = clients
        self.loop: Optional[asyncio.AbstractEventLoop] = None
        self._scheduled = False

    def request(self) -> None:
        """Flush soon; any thread."""
        if self._scheduled:
            return
        self._scheduled = True
        loop = self.loop
        if loop is None:
            return
        try:
            loop.call_soon_threadsafe(loop.call_later, FLUSH_DELAY_S, self.flush)
        except RuntimeError:    # the loop is closed: the server is stopping
            pass

    def disconnect(self, client: Client, reason: str) -> None:
        """Close a misbehaving client's connection (1008, policy violation); any thread."""
        if client.closed:
            return
        client.closed = True
        client.abandon()
        client.warn(f'disconnected client {client.id}: {reason}')
        loop = self.loop
        if loop is None:
            return
        try:
            asyncio.run_coroutine_threadsafe(client.ws.close(1008, reason[:100]), loop)
        except RuntimeError:
            pass

    def flush(self) -> None:
        """Write every client's queue (loop thread)."""
        self._scheduled = False
        behind = False
        for client in list(self.clients.values()):
            behind |= not client.flush()
        if behind:      # a peer that does not read: try again once its socket may drain
            self._scheduled = True
            assert self.loop is not None
            self.loop.call_later(RETRY_S, self.flush)


def _address(ws: ServerConnection) -> str:
    try:
        host, port = ws.remote_address[:2]
        return f'{host}:{port}'
    except (TypeError, ValueError, IndexError):
        return '?'


class WsServer:
    """ws-protocol v1 server; see the module docstring for its threads."""

    def __init__(self, listener: ServerListener, name: str, capabilities: Iterable[str],
                 supported_encodings: Iterable[str] = (),
                 metadata: Optional[Mapping[str, str]] = None,
                 warn: Callable[[str], None] = lambda text: None,
                 max_message_bytes: int = 1 << 20) -> None:
        """Describe the server; start() binds it."""
        self.listener = listener
        self.name = name
        self.capabilities = list(capabilities)
        self.supported_encodings = list(supported_encodings)
        self.metadata = dict(metadata or {})
        self.warn = warn
        # websockets closes a connection whose message is larger than this; up to it, a
        # message over the listener's own limit is refused with a status instead.
        self.max_frame_bytes = max(4 * max_message_bytes, 8 << 20)
        self.session_id = str(time.time_ns())
        self.port = 0
        self.clients: Dict[int, Client] = {}
        self.channels: Dict[int, Channel] = {}
        self.services: Dict[int, Service] = {}
        self.graph = EMPTY_GRAPH
        self._fanout: Dict[int, Tuple[Tuple[Client, int], ...]] = {}
        self._latched: Dict[int, Deque[Tuple[bytes, int]]] = {}
        self._lock = threading.Lock()      # subscriptions vs latched logging and replay
        self._parameter_counts: Dict[str, int] = collections.Counter()
        self._ids = itertools.count(1)
        self._client_ids = itertools.count(1)
        self._flusher = Flusher(self.clients)
        self._loop: Optional[asyncio.AbstractEventLoop] = None
        self._thread: Optional[threading.Thread] = None
        self._stop: Optional[asyncio.Event] = None
        self._workers = concurrent.futures.ThreadPoolExecutor(
            max_workers=8, thread_name_prefix='foxglove_calls')
        self._ws_logger = _quiet_logger(warn)

    # --- life cycle (any thread)

    def start(self, host: str, port: int) -> None:
        """Bind and serve in a thread of its own; ServerStartError if it cannot bind."""
        started: 'concurrent.futures.Future[int]' = concurrent.futures.Future()
        self._thread = threading.Thread(target=self._run, args=(host, port, started),
                                        name='foxglove_ws', daemon=True)
        self._thread.start()
        try:
            self.port = started.result(timeout=30.0)
        except Exception as exc:   # OSError kinds from bind, a timeout
            detail = ' '.join(str(exc).split()) or type(exc).__name__
            self._workers.shutdown(wait=False)
            raise ServerStartError(f'ws://{host}:{port}: {detail}') from None

    def _run(self, host: str, port: int, started: 'concurrent.futures.Future[int]') -> None:
        loop = self._loop = self._flusher.loop = asyncio.new_event_loop()
        try:
            loop.run_until_complete(self._main(host, port, started))
        except Exception as exc:   # bind errors reach start() through `started`
            if not started.done():
                started.set_exception(exc)
        finally:
            loop.close()

    async def _main(self, host: str, port: int,
                    started: 'concurrent.futures.Future[int]') -> None:
        self._stop = asyncio.Event()
        async with serve(self._serve, host, port, subprotocols=list(p.SUBPROTOCOLS),
                         compression=None, max_size=self.max_frame_bytes,
                         write_limit=WRITE_LIMIT, close_timeout=CLOSE_TIMEOUT_S,
                         logger=self._ws_logger, server_header=None) as server:
            sockets = list(server.sockets)
            started.set_result(sockets[0].getsockname()[1] if sockets else port)
            await self._stop.wait()
            server.close(close_connections=True)

    def stop(self) -> None:
        """Close every connection and stop the server (waits at most a few seconds)."""
        loop, stop = self._loop, self._stop
        if loop is not None and stop is not None and not loop.is_closed():
            try:
                loop.call_soon_threadsafe(stop.set)
            except RuntimeError:
                pass
        if self._thread is not None:
            self._thread.join(5.0)
        self._workers.shutdown(wait=False, cancel_futures=True)

    # --- a connection (loop thread)

    async def _serve(self, ws: ServerConnection) -> None:
        assert self._loop is not None
        client = Client(next(self._client_ids), ws, self._flusher, self.warn)
        self.clients[client.id] = client
        info: Dict[str, Any] = {'op': 'serverInfo', 'name': self.name,
                                'capabilities': self.capabilities,
                                'metadata': self.metadata, 'sessionId': self.session_id}
        if self.supported_encodings:
            info['supportedEncodings'] = self.supported_encodings
        client.send_json(info)
        if self.channels:
            client.send_json({'op': 'advertise', 'channels': [
                c.advertisement() for c in self.channels.values()]})
        if self.services and p.SERVICES in self.capabilities:
            client.send_json({'op': 'advertiseServices', 'services': [
                s.advertisement() for s in self.services.values()]})
        try:
            async for raw in ws:
                try:
                    if isinstance(raw, str):
                        self._on_text(client, raw)
                    else:
                        self._on_binary(client, raw)
                except (p.ProtocolError, ValueError, KeyError, TypeError) as exc:
                    self._refuse(client, f'{_text(exc)}')
        except ConnectionClosed:
            pass
        finally:
            self._drop_client(client)

    def _drop_client(self, client: Client) -> None:
        client.closed = True
        self.clients.pop(client.id, None)
        with self._lock:
            for channel_id in set(client.subscriptions.values()):
                self._rebuild_fanout(channel_id)
        for channel in list(client.channels.values()):
            self._call(self.listener.on_client_unadvertise, client, channel)
        client.channels.clear()
        self._unsubscribe_parameters(client, set(client.parameter_names))
        if client.graph:
            client.graph = False
            if not any(c.graph for c in self.clients.values()):
                self._call(self.listener.on_connection_graph_unsubscribe)

    def _refuse(self, client: Client, text: str) -> None:
        """Send the client that sent bad input a status; log a rate-limited line."""
        client.status(p.WARNING, text)
        self.warn(f'client {client.id}: {text}')

    def _call(self, fn: Callable[..., Any], *args: Any) -> Any:
        """Call the listener on the loop; an exception is logged, never kills the loop."""
        try:
            return fn(*args)
        except Exception as exc:     # noqa: B902 - the listener's bug must not stop serving
            self.warn(f'{getattr(fn, "__name__", fn)} failed: {type(exc).__name__}: '
                      f'{_text(exc)}')
            return None

    # --- client text messages (loop thread)

    def _on_text(self, client: Client, raw: str) -> None:
        try:
            msg = json.loads(raw)
        except ValueError:
            raise p.ProtocolError('text message is not JSON') from None
        if not isinstance(msg, dict):
            raise p.ProtocolError('text message is not a JSON object')
        op = msg.get('op')
        handler = self._ops.get(op) if isinstance(op, str) else None
        if handler is None:
            raise p.ProtocolError(f'unknown op {str(op)[:40]!r}')
        needs = self._needs.get(op)
        if needs is not None and needs not in self.capabilities:
            raise p.ProtocolError(f'{op}: the server does not offer the {needs} capability')
        handler(self, client, msg)

    def _subscribe(self, client: Client, msg: Dict[str, Any]) -> None:
        for entry in _list(msg, 'subscriptions'):
            sub_id, channel_id = int(entry['id']), int(entry['channelId'])
            if channel_id not in self.channels:
                self._refuse(client, f'subscribe: no channel {channel_id}')
                continue
            if sub_id in client.subscriptions:
                self._refuse(client, f'subscribe: subscription id {sub_id} is in use')
                continue
            with self._lock:
                client.subscriptions[sub_id] = channel_id
                self._rebuild_fanout(channel_id)
                # A late subscriber of a latched topic gets its last messages, it alone.
                for payload, log_time in self._latched.get(channel_id, ()):
                    client.send_data(p.message_header(sub_id, log_time) + payload)

    def _unsubscribe(self, client: Client, msg: Dict[str, Any]) -> None:
        for sub_id in _list(msg, 'subscriptionIds'):
            channel_id = client.subscriptions.pop(int(sub_id), None)
            if channel_id is not None:
                with self._lock:
                    self._rebuild_fanout(channel_id)

    def _rebuild_fanout(self, channel_id: int) -> None:
        targets = tuple((c, sub) for c in self.clients.values() if not c.closed
                        for sub, ch in c.subscriptions.items() if ch == channel_id)
        if targets:
            self._fanout[channel_id] = targets
        else:
            self._fanout.pop(channel_id, None)

    def _client_advertise(self, client: Client, msg: Dict[str, Any]) -> None:
        for entry in _list(msg, 'channels'):
            channel = ClientChannel(int(entry['id']), str(entry['topic']),
                                    str(entry['encoding']), str(entry.get('schemaName', '')))
            if channel.id in client.channels:
                self._refuse(client, f'advertise: channel id {channel.id} is in use')
                continue
            if self._call(self.listener.on_client_advertise, client, channel):
                client.channels[channel.id] = channel

    def _client_unadvertise(self, client: Client, msg: Dict[str, Any]) -> None:
        for channel_id in _list(msg, 'channelIds'):
            channel = client.channels.pop(int(channel_id), None)
            if channel is not None:
                self._call(self.listener.on_client_unadvertise, client, channel)

    def _get_parameters(self, client: Client, msg: Dict[str, Any]) -> None:
        names = [str(n) for n in msg.get('parameterNames') or []]
        self._work(client, 'getParameters', self._answer_parameters, client,
                   self.listener.get_parameters, names, msg.get('id'), True)

    def _set_parameters(self, client: Client, msg: Dict[str, Any]) -> None:
        params = [e for e in _list(msg, 'parameters') if isinstance(e, dict) and 'name' in e]
        # The spec: a set is answered only when it carries an id.
        self._work(client, 'setParameters', self._answer_parameters, client,
                   self.listener.set_parameters, params, msg.get('id'), False)

    def _answer_parameters(self, client: Client, fn: Callable[..., List[Dict[str, Any]]],
                           arg: Any, request_id: Any, always: bool) -> None:
        values = fn(client, arg)
        if request_id is not None or always:
            answer: Dict[str, Any] = {'op': 'parameterValues', 'parameters': values}
            if request_id is not None:
                answer['id'] = request_id
            client.send_json(answer)

    def _subscribe_parameters(self, client: Client, msg: Dict[str, Any]) -> None:
        names = {str(n) for n in _list(msg, 'parameterNames')} - client.parameter_names
        client.parameter_names |= names
        new = set()
        for name in names:
            self._parameter_counts[name] += 1
            if self._parameter_counts[name] == 1:
                new.add(name)
        if new:
            self._call(self.listener.on_parameters_subscribe, new)

    def _unsubscribe_parameters_msg(self, client: Client, msg: Dict[str, Any]) -> None:
        names = {str(n) for n in _list(msg, 'parameterNames')}
        self._unsubscribe_parameters(client, names & client.parameter_names)

    def _unsubscribe_parameters(self, client: Client, names: Set[str]) -> None:
        client.parameter_names -= names
        gone = set()
        for name in names:
            self._parameter_counts[name] -= 1
            if self._parameter_counts[name] <= 0:
                del self._parameter_counts[name]
                gone.add(name)
        if gone:
            self._call(self.listener.on_parameters_unsubscribe, gone)

    def _subscribe_graph(self, client: Client, msg: Dict[str, Any]) -> None:
        if client.graph:
            return
        first = not any(c.graph for c in self.clients.values())
        client.graph = True
        client.send_json(_graph_update(EMPTY_GRAPH, self.graph))
        if first:
            self._call(self.listener.on_connection_graph_subscribe)

    def _unsubscribe_graph(self, client: Client, msg: Dict[str, Any]) -> None:
        if client.graph:
            client.graph = False
            if not any(c.graph for c in self.clients.values()):
                self._call(self.listener.on_connection_graph_unsubscribe)

    def _fetch_asset(self, client: Client, msg: Dict[str, Any]) -> None:
        uri, request_id = str(msg['uri']), int(msg['requestId'])

        def fetch() -> None:
            try:
                data = self.listener.fetch_asset(client, uri)
            except CallFailed as exc:
                client.send_control(p.fetch_asset_response(request_id, error=_text(exc)))
                return
            client.send_control(p.fetch_asset_response(request_id, data))
        self._work(client, 'fetchAsset', fetch)

    _ops: Dict[str, Callable[['WsServer', Client, Dict[str, Any]], None]] = {
        'subscribe': _subscribe,
        'unsubscribe': _unsubscribe,
        'advertise': _client_advertise,
        'unadvertise': _client_unadvertise,
        'getParameters': _get_parameters,
        'setParameters': _set_parameters,
        'subscribeParameterUpdates': _subscribe_parameters,
        'unsubscribeParameterUpdates': _unsubscribe_parameters_msg,
        'subscribeConnectionGraph': _subscribe_graph,
        'unsubscribeConnectionGraph': _unsubscribe_graph,
        'fetchAsset': _fetch_asset,
    }
    _needs = {'advertise': p.CLIENT_PUBLISH, 'unadvertise': p.CLIENT_PUBLISH,
              'getParameters': p.PARAMETERS, 'setParameters': p.PARAMETERS,
              'subscribeParameterUpdates': p.PARAMETERS_SUBSCRIBE,
              'unsubscribeParameterUpdates': p.PARAMETERS_SUBSCRIBE,
              'subscribeConnectionGraph': p.CONNECTION_GRAPH,
              'unsubscribeConnectionGraph': p.CONNECTION_GRAPH,
              'fetchAsset': p.ASSETS}

    # --- client binary messages (loop thread)

    def _on_binary(self, client: Client, raw: bytes) -> None:
        if not raw:
            raise p.ProtocolError('empty binary message')
        opcode = raw[0]
        if opcode == p.CLIENT_MESSAGE_DATA:
            if p.CLIENT_PUBLISH not in self.capabilities:
                raise p.ProtocolError('MessageData: the server does not offer clientPublish')
            message = p.parse_client_message(raw)
            channel = client.channels.get(message.channel_id)
            if channel is None:
                return      # refused at advertise (the client was told) or never advertised
            self._call(self.listener.on_message_data, client, channel, message.payload)
        elif opcode == p.CLIENT_SERVICE_CALL:
            if p.SERVICES not in self.capabilities:
                raise p.ProtocolError('ServiceCallRequest: the server does not offer services')
            self._service_call(client, p.parse_service_call(raw))
        else:
            raise p.ProtocolError(f'unknown binary opcode 0x{opcode:02x}')

    def _service_call(self, client: Client, call: p.ServiceCall) -> None:
        service = self.services.get(call.service_id)

        def fail(text: str) -> None:
            client.send_json({'op': 'serviceCallFailure', 'serviceId': call.service_id,
                              'callId': call.call_id, 'message': text})
        if service is None:
            fail(f'no service with id {call.service_id}')
            return
        if call.encoding != service.encoding:
            fail(f'Unsupported encoding {call.encoding!r}: {service.name} takes '
                 f'{service.encoding}')
            return

        def run() -> None:
            try:
                response = self.listener.call_service(client, service, call.payload)
            except CallFailed as exc:
                fail(_text(exc))
                return
            client.send_control(p.service_call_response(service.id, call.call_id,
                                                        service.encoding, response))
        if not self._work(client, 'service call', run):
            fail(f'{service.name}: more than {MAX_CALLS_PER_CLIENT} calls in flight')

    def _work(self, client: Client, what: str, fn: Callable[..., None], *args: Any) -> bool:
        """Run `fn` on the worker pool (one client's calls bounded); False if refused."""
        if client.calls_in_flight >= MAX_CALLS_PER_CLIENT:
            self._refuse(client, f'{what}: more than {MAX_CALLS_PER_CLIENT} requests in '
                                 'flight; refused')
            return False
        client.calls_in_flight += 1
        loop = self._loop

        def run() -> None:
            try:
                fn(*args)
            except Exception as exc:    # noqa: B902 - reported to the client, logged once
                self.warn(f'client {client.id}: {what} failed: {type(exc).__name__}: '
                          f'{_text(exc)}')
                client.status(p.ERROR, f'{what} failed: {_text(exc)}')
            finally:
                if loop is not None and not loop.is_closed():
                    try:
                        loop.call_soon_threadsafe(_done, client)
                    except RuntimeError:
                        pass
        try:
            self._workers.submit(run)
        except RuntimeError:            # the pool is shut down: the server is stopping
            client.calls_in_flight -= 1
            return False
        return True

    # --- the ROS side's calls (any thread)

    def add_channel(self, topic: str, encoding: str, schema_name: str, schema: str,
                    schema_encoding: str, latched_depth: int = 0) -> int:
        """Advertise a channel to every client; keep its last `latched_depth` messages."""
        channel = Channel(next(self._ids), topic, encoding, schema_name, schema,
                          schema_encoding)
        if latched_depth > 0:
            with self._lock:
                self._latched[channel.id] = collections.deque(maxlen=latched_depth)
        self._on_loop(self._advertise, channel)
        return channel.id

    def _advertise(self, channel: Channel) -> None:
        self.channels[channel.id] = channel
        for client in list(self.clients.values()):
            client.send_json({'op': 'advertise', 'channels': [channel.advertisement()]})

    def log(self, channel_id: int, payload: bytes, log_time_ns: int) -> None:
        """Send a message to the channel's subscribers (and keep it if the channel latches)."""
        latched = self._latched.get(channel_id)
        if latched is not None:
            with self._lock:
                latched.append((payload, log_time_ns))
                self._fan_out(channel_id, payload, log_time_ns)
            return
        self._fan_out(channel_id, payload, log_time_ns)

    def _fan_out(self, channel_id: int, payload: bytes, log_time_ns: int) -> None:
        targets = self._fanout.get(channel_id)
        if targets:
            for client, sub_id in targets:
                client.send_data(p.message_header(sub_id, log_time_ns) + payload)

    def broadcast_time(self, time_ns: int) -> None:
        """Send every client the server's time (the `time` capability)."""
        frame = p.time_frame(time_ns)
        for client in list(self.clients.values()):
            client.send_data(frame)

    def broadcast_status(self, level: int, message: str) -> None:
        """Send every client a status message (server-wide news only)."""
        for client in list(self.clients.values()):
            client.status(level, message)

    def status(self, client: Optional[Client], level: int, message: str) -> None:
        """Send `client` a status message; every client when it is None."""
        if client is None:
            self.broadcast_status(level, message)
        else:
            client.status(level, message)

    def set_services(self, services: Iterable[Tuple[str, str, str, str]]) -> None:
        """Advertise exactly these (name, type, request schema, response schema)."""
        self._on_loop(self._set_services, list(services))

    def _set_services(self, wanted: List[Tuple[str, str, str, str]]) -> None:
        current = {(s.name, s.type): s for s in self.services.values()}
        keep = {(name, type_name) for name, type_name, _, _ in wanted}
        gone = [s.id for key, s in current.items() if key not in keep]
        added = []
        for name, type_name, request, response in wanted:
            if (name, type_name) not in current:
                service = Service(next(self._ids), name, type_name, request, response)
                self.services[service.id] = service
                added.append(service)
        for service_id in gone:
            del self.services[service_id]
        if p.SERVICES not in self.capabilities:
            return
        for client in list(self.clients.values()):
            if gone:
                client.send_json({'op': 'unadvertiseServices', 'serviceIds': gone})
            if added:
                client.send_json({'op': 'advertiseServices',
                                  'services': [s.advertisement() for s in added]})

    def publish_connection_graph(self, graph: Graph) -> None:
        """Send graph subscribers what changed since the last graph."""
        self._on_loop(self._publish_graph, graph)

    def _publish_graph(self, graph: Graph) -> None:
        old, self.graph = self.graph, graph
        update = _graph_update(old, graph)
        if not any(update[k] for k in update if k != 'op'):
            return
        for client in list(self.clients.values()):
            if client.graph:
                client.send_json(update)

    def publish_parameter_values(self, parameters: List[Dict[str, Any]]) -> None:
        """Send each client the changed parameters it subscribed to."""
        self._on_loop(self._publish_parameters, parameters)

    def _publish_parameters(self, parameters: List[Dict[str, Any]]) -> None:
        for client in list(self.clients.values()):
            mine = [e for e in parameters if e['name'] in client.parameter_names]
            if mine:
                client.send_json({'op': 'parameterValues', 'parameters': mine})

    def _on_loop(self, fn: Callable[..., None], *args: Any) -> None:
        loop = self._loop
        if loop is None or loop.is_closed():
            fn(*args)        # not started, or stopped: just update the state
            return
        try:
            loop.call_soon_threadsafe(fn, *args)
        except RuntimeError:
            pass


def _done(client: Client) -> None:
    client.calls_in_flight -= 1


def _graph_update(old: Graph, new: Graph) -> Dict[str, Any]:
    """Return the connectionGraphUpdate turning `old` into `new` (from EMPTY_GRAPH: all)."""
    old_topics = set(old.published) | set(old.subscribed)
    new_topics = set(new.published) | set(new.subscribed)

    def changed(before: Mapping[str, List[str]], after: Mapping[str, List[str]],
                key: str) -> List[Dict[str, Any]]:
        # A topic left with subscribers only keeps an entry with no publishers (and the
        # reverse); one with neither is in removedTopics.
        return [{'name': name, key: after.get(name, [])}
                for name in sorted(set(before) | set(after))
                if before.get(name) != after.get(name) and name in new_topics]
    return {'op': 'connectionGraphUpdate',
            'publishedTopics': changed(old.published, new.published, 'publisherIds'),
            'subscribedTopics': changed(old.subscribed, new.subscribed, 'subscriberIds'),
            'advertisedServices': [{'name': n, 'providerIds': new.services[n]}
                                   for n in sorted(new.services)
                                   if old.services.get(n) != new.services[n]],
            'removedTopics': sorted(old_topics - new_topics),
            'removedServices': sorted(set(old.services) - set(new.services))}


def _list(msg: Mapping[str, Any], key: str) -> List[Any]:
    value = msg.get(key)
    if not isinstance(value, list):
        raise p.ProtocolError(f'{msg.get("op")}: {key} must be a list')
    return value


def _text(exc: BaseException) -> str:
    return ' '.join(str(exc).split())[:300] or type(exc).__name__


class _ToWarn(logging.Handler):
    """websockets' own log records as one rate-limited line each, without tracebacks."""

    def __init__(self, warn: Callable[[str], None]) -> None:
        super().__init__(logging.WARNING)
        self._warn = warn

    def emit(self, record: logging.LogRecord) -> None:
        text = record.getMessage()
        if record.exc_info and record.exc_info[1] is not None:
            text += f': {_text(record.exc_info[1])}'
        self._warn(f'websocket: {text}')


def _quiet_logger(warn: Callable[[str], None]) -> logging.Logger:
    logger = logging.getLogger(f'foxglove_live.websockets.{id(warn)}')
    logger.propagate = False
    logger.setLevel(logging.WARNING)
    logger.handlers = [_ToWarn(warn)]
    return logger
