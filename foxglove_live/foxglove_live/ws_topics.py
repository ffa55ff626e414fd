# SPDX-License-Identifier: Apache-2.0
"""
Channels, subscriptions and late replay: the protocol's base part (no ROS).

The ROS side adds a channel per topic (any thread) and logs its messages (the reader
thread): each goes to the channel's subscribers through a fan-out table rebuilt on every
subscription change. A channel that latches keeps its last messages, replayed to the one
subscription that joins late, it alone.
"""

import collections
import threading
from typing import Any, Deque, Dict, Tuple

from . import protocol as p
from .ws_client import Client
from .ws_context import Capability, message_list, Op, ServerContext
from .ws_listener import Channel


class Topics(Capability):
    """advertise / subscribe / unsubscribe, the messages and the latched replay."""

    def __init__(self, server: ServerContext) -> None:
        """No channel yet."""
        super().__init__(server)
        self.channels: Dict[int, Channel] = {}
        self._fanout: Dict[int, Tuple[Tuple[Client, int], ...]] = {}
        self._latched: Dict[int, Deque[Tuple[bytes, int]]] = {}
        self._lock = threading.Lock()      # subscriptions vs latched logging and replay

    def ops(self) -> Dict[str, Op]:
        """Subscribe and unsubscribe: every server offers them."""
        return {'subscribe': (None, self._subscribe),
                'unsubscribe': (None, self._unsubscribe)}

    def connect(self, client: Client) -> None:
        """Advertise every channel to a new client."""
        if self.channels:
            client.send_json({'op': 'advertise', 'channels': [
                c.advertisement() for c in self.channels.values()]})

    def drop(self, client: Client) -> None:
        """Stop sending the client's subscriptions."""
        with self._lock:
            for channel_id in set(client.subscriptions.values()):
                self._rebuild_fanout(channel_id)

    # --- client messages (loop thread)

    def _subscribe(self, client: Client, msg: Dict[str, Any]) -> None:
        for entry in message_list(msg, 'subscriptions'):
            sub_id, channel_id = int(entry['id']), int(entry['channelId'])
            if channel_id not in self.channels:
                self.server.refuse(client, f'subscribe: no channel {channel_id}')
                continue
            if sub_id in client.subscriptions:
                self.server.refuse(client, f'subscribe: subscription id {sub_id} is in use')
                continue
            with self._lock:
                client.subscriptions[sub_id] = channel_id
                self._rebuild_fanout(channel_id)
                # A late subscriber of a latched topic gets its last messages, it alone.
                for payload, log_time in self._latched.get(channel_id, ()):
                    client.send_data(p.message_header(sub_id, log_time) + payload)

    def _unsubscribe(self, client: Client, msg: Dict[str, Any]) -> None:
        for sub_id in message_list(msg, 'subscriptionIds'):
            channel_id = client.subscriptions.pop(int(sub_id), None)
            if channel_id is not None:
                with self._lock:
                    self._rebuild_fanout(channel_id)

    def _rebuild_fanout(self, channel_id: int) -> None:
        targets = tuple((c, sub) for c in self.server.clients.values() if not c.closed
                        for sub, ch in c.subscriptions.items() if ch == channel_id)
        if targets:
            self._fanout[channel_id] = targets
        else:
            self._fanout.pop(channel_id, None)

    # --- the ROS side's calls (any thread)

    def add_channel(self, topic: str, encoding: str, schema_name: str, schema: str,
                    schema_encoding: str, latched_depth: int = 0) -> int:
        """Advertise a channel to every client; keep its last `latched_depth` messages."""
        channel = Channel(next(self.server.ids), topic, encoding, schema_name, schema,
                          schema_encoding)
        if latched_depth > 0:
            with self._lock:
                self._latched[channel.id] = collections.deque(maxlen=latched_depth)
        self.server.on_loop(self._advertise, channel)
        return channel.id

    def _advertise(self, channel: Channel) -> None:
        self.channels[channel.id] = channel
        for client in list(self.server.clients.values()):
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
