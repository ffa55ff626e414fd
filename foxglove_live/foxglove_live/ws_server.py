# SPDX-License-Identifier: Apache-2.0
"""
The WebSocket side of foxglove_server: ws-protocol v1 on `websockets`, no ROS.

One asyncio loop in its own thread carries every connection. It accepts both subprotocol
names (protocol.SUBPROTOCOLS) and speaks the same protocol under each. WsServer owns the
life cycle, the connections and the routing of client messages; each part of the protocol
is a capability of its own module, composed here:

- ws_topics: channels and their subscriptions, the last messages of latched channels
  (replayed to the one subscription that joins late);
- ws_client_publish, ws_parameters, ws_services, ws_graph (the connection graph, sent whole
  to a new subscriber, then as differences), ws_assets;
- ws_client: one outgoing queue per client; ws_context: what the capabilities share;
  ws_listener: the calls into the ROS side.

Status messages go to the client they concern; only server-wide news is broadcast.

Threads: `log`, `broadcast_time`, `add_channel` and the other public methods may be called
from any thread (the ROS executor's). A message is queued per subscribed client; the loop is
woken once per batch (ws_client.Flusher) and writes each client's batch in one write, so a
slow or dead client only fills (and then drops from) its own bounded queue; the other
clients and the ROS side never wait for it.
Calls that wait on ROS (parameters, services, assets) run on a small worker pool, bounded per
client, never on the loop.
"""

import asyncio
import concurrent.futures
import itertools
import json
import logging
import threading
import time
from typing import Any, Callable, Dict, Iterable, List, Mapping, Optional, Tuple

from websockets.asyncio.server import serve, ServerConnection
from websockets.exceptions import ConnectionClosed
from websockets.typing import Subprotocol

from . import protocol as p
from .ws_assets import Assets
from .ws_client import Client, Flusher, WRITE_LIMIT
from .ws_client_publish import ClientPublish
from .ws_context import Capability, error_text, Op, ServerContext
from .ws_graph import ConnectionGraph
from .ws_listener import Graph, ServerListener, ServerStartError
from .ws_parameters import Parameters
from .ws_services import Services
from .ws_topics import Topics

CLOSE_TIMEOUT_S = 1.0


class WsServer(ServerContext):
    """ws-protocol v1 server; see the module docstring for its threads."""

    def __init__(self, listener: ServerListener, name: str, capabilities: Iterable[str],
                 supported_encodings: Iterable[str] = (),
                 metadata: Optional[Mapping[str, str]] = None,
                 warn: Callable[[str], None] = lambda text: None,
                 max_message_bytes: int = 1 << 20) -> None:
        """Describe the server; start() binds it."""
        super().__init__(listener, capabilities, warn)
        self.name = name
        self.supported_encodings = list(supported_encodings)
        self.metadata = dict(metadata or {})
        # websockets closes a connection whose message is larger than this; up to it, a
        # message over the listener's own limit is refused with a status instead.
        self.max_frame_bytes = max(4 * max_message_bytes, 8 << 20)
        self.session_id = str(time.time_ns())
        self.port = 0
        self.topics = Topics(self)
        self.client_publish = ClientPublish(self)
        self.parameters = Parameters(self)
        self.services = Services(self)
        self.connection_graph = ConnectionGraph(self)
        self.assets = Assets(self)
        # In this order a new client is greeted and a client that left is forgotten.
        self._parts: Tuple[Capability, ...] = (
            self.topics, self.services, self.client_publish, self.parameters,
            self.connection_graph, self.assets)
        self._ops: Dict[str, Op] = {}
        for part in self._parts:
            self._ops.update(part.ops())
        # The hot path (the reader thread): straight to the channels' subscribers.
        self.log: Callable[[int, bytes, int], None] = self.topics.log
        self._client_ids = itertools.count(1)
        self._flusher = Flusher(self.clients)
        self._thread: Optional[threading.Thread] = None
        self._stop: Optional[asyncio.Event] = None
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
            self.workers.shutdown(wait=False)
            raise ServerStartError(f'ws://{host}:{port}: {detail}') from None

    def _run(self, host: str, port: int, started: 'concurrent.futures.Future[int]') -> None:
        loop = self.loop = self._flusher.loop = asyncio.new_event_loop()
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
        subprotocols = [Subprotocol(name) for name in p.SUBPROTOCOLS]
        async with serve(self._serve, host, port, subprotocols=subprotocols,
                         compression=None, max_size=self.max_frame_bytes,
                         write_limit=WRITE_LIMIT, close_timeout=CLOSE_TIMEOUT_S,
                         logger=self._ws_logger, server_header=None) as server:
            sockets = list(server.sockets)
            started.set_result(sockets[0].getsockname()[1] if sockets else port)
            await self._stop.wait()
            server.close(close_connections=True)

    def stop(self) -> None:
        """Close every connection and stop the server (waits at most a few seconds)."""
        loop, stop = self.loop, self._stop
        if loop is not None and stop is not None and not loop.is_closed():
            try:
                loop.call_soon_threadsafe(stop.set)
            except RuntimeError:
                pass
        if self._thread is not None:
            self._thread.join(5.0)
        self.workers.shutdown(wait=False, cancel_futures=True)

    # --- a connection (loop thread)

    async def _serve(self, ws: ServerConnection) -> None:
        assert self.loop is not None
        client = Client(next(self._client_ids), ws, self._flusher, self.warn)
        self.clients[client.id] = client
        info: Dict[str, Any] = {'op': 'serverInfo', 'name': self.name,
                                'capabilities': self.capabilities,
                                'metadata': self.metadata, 'sessionId': self.session_id}
        if self.supported_encodings:
            info['supportedEncodings'] = self.supported_encodings
        client.send_json(info)
        for part in self._parts:
            part.connect(client)
        try:
            async for raw in ws:
                try:
                    if isinstance(raw, str):
                        self._on_text(client, raw)
                    else:
                        self._on_binary(client, raw)
                except (p.ProtocolError, ValueError, KeyError, TypeError) as exc:
                    self.refuse(client, f'{error_text(exc)}')
        except ConnectionClosed:
            pass
        finally:
            self._drop_client(client)

    def _drop_client(self, client: Client) -> None:
        client.closed = True
        self.clients.pop(client.id, None)
        for part in self._parts:
            part.drop(client)

    def _on_text(self, client: Client, raw: str) -> None:
        try:
            msg = json.loads(raw)
        except ValueError:
            raise p.ProtocolError('text message is not JSON') from None
        if not isinstance(msg, dict):
            raise p.ProtocolError('text message is not a JSON object')
        op = msg.get('op')
        entry = self._ops.get(op) if isinstance(op, str) else None
        if entry is None:
            raise p.ProtocolError(f'unknown op {str(op)[:40]!r}')
        needs, handler = entry
        if needs is not None and needs not in self.capabilities:
            raise p.ProtocolError(f'{op}: the server does not offer the {needs} capability')
        handler(client, msg)

    def _on_binary(self, client: Client, raw: bytes) -> None:
        if not raw:
            raise p.ProtocolError('empty binary message')
        opcode = raw[0]
        if opcode == p.CLIENT_MESSAGE_DATA:
            self.client_publish.on_message_data(client, raw)
        elif opcode == p.CLIENT_SERVICE_CALL:
            self.services.on_service_call(client, raw)
        else:
            raise p.ProtocolError(f'unknown binary opcode 0x{opcode:02x}')

    # --- the ROS side's calls (any thread); log() is the Topics' own

    def add_channel(self, topic: str, encoding: str, schema_name: str, schema: str,
                    schema_encoding: str, latched_depth: int = 0) -> int:
        """Advertise a channel to every client; keep its last `latched_depth` messages."""
        return self.topics.add_channel(topic, encoding, schema_name, schema, schema_encoding,
                                       latched_depth)

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
        self.services.set_services(services)

    def publish_connection_graph(self, graph: Graph) -> None:
        """Send graph subscribers what changed since the last graph."""
        self.connection_graph.publish(graph)

    def publish_parameter_values(self, parameters: List[Dict[str, Any]]) -> None:
        """Send each client the changed parameters it subscribed to."""
        self.parameters.publish(parameters)


class _ToWarn(logging.Handler):
    """websockets' own log records as one rate-limited line each, without tracebacks."""

    def __init__(self, warn: Callable[[str], None]) -> None:
        super().__init__(logging.WARNING)
        self._warn = warn

    def emit(self, record: logging.LogRecord) -> None:
        text = record.getMessage()
        if record.exc_info and record.exc_info[1] is not None:
            text += f': {error_text(record.exc_info[1])}'
        self._warn(f'websocket: {text}')


def _quiet_logger(warn: Callable[[str], None]) -> logging.Logger:
    logger = logging.getLogger(f'foxglove_live.websockets.{id(warn)}')
    logger.propagate = False
    logger.setLevel(logging.WARNING)
    logger.handlers = [_ToWarn(warn)]
    return logger
