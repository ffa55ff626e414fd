# SPDX-License-Identifier: Apache-2.0
"""
One WebSocket connection of foxglove_server: its state and its outgoing queues (no ROS).

A message is queued per subscribed client from any thread; the loop is woken once per batch
(Flusher) and writes each client's batch in one write, so a slow or dead client only fills
(and then drops from) its own bounded queue; the other clients and the ROS side never wait
for it.
"""

import asyncio
import collections
import json
from typing import Any, Callable, Deque, Dict, Mapping, NamedTuple, Optional, Set, Union

from websockets.asyncio.server import ServerConnection
from websockets.protocol import State

# A client's data queue (messages and time) holds at most this many frames; when its socket
# cannot keep up the oldest are dropped (counted and logged), control messages never.
MAX_QUEUED_FRAMES = 4096
# Status messages waiting for one client: a client that floods bad input and does not read
# keeps only the newest (they only explain refusals).
MAX_QUEUED_STATUS = 64
# Replies (JSON answers, service responses, assets) waiting for one client: past this the
# client is sending requests without reading the answers, and it is disconnected.
MAX_QUEUED_REPLIES = 10000
# Bytes a client's socket may buffer; over it, its messages wait in (and drop from) its queue.
WRITE_LIMIT = 1 << 20
# A batch: how long after its first message the queues are written [s]. An app draws at
# 60 Hz at most; 5 ms batches 10 messages of the HB50 stack's 2000 a second in one wake-up.
FLUSH_DELAY_S = 0.005
# How soon a client whose socket was full is tried again [s].
RETRY_S = 0.02


class ClientChannel(NamedTuple):
    """A channel a client advertised for publishing."""

    id: int             # noqa: A003 - the protocol's field name
    topic: str
    encoding: str
    schema_name: str


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
