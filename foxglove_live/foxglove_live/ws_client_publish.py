# SPDX-License-Identifier: Apache-2.0
"""
clientPublish on the WebSocket side (no ROS): a client's channels and its messages.

The listener creates (or refuses) what publishing on a client channel needs and publishes
each message; a message on a channel that was refused or never advertised is dropped.
"""

from typing import Any, Dict

from . import protocol as p
from .ws_client import Client, ClientChannel
from .ws_context import Capability, message_list, Op


class ClientPublish(Capability):
    """advertise / unadvertise from a client and its MessageData frames."""

    def ops(self) -> Dict[str, Op]:
        """Answer the client's advertise and unadvertise."""
        return {'advertise': (p.CLIENT_PUBLISH, self._advertise),
                'unadvertise': (p.CLIENT_PUBLISH, self._unadvertise)}

    def drop(self, client: Client) -> None:
        """Unadvertise the channels of a client that left."""
        for channel in list(client.channels.values()):
            self.server.call(self.listener.on_client_unadvertise, client, channel)
        client.channels.clear()

    def _advertise(self, client: Client, msg: Dict[str, Any]) -> None:
        for entry in message_list(msg, 'channels'):
            channel = ClientChannel(int(entry['id']), str(entry['topic']),
                                    str(entry['encoding']), str(entry.get('schemaName', '')))
            if channel.id in client.channels:
                self.server.refuse(client, f'advertise: channel id {channel.id} is in use')
                continue
            if self.server.call(self.listener.on_client_advertise, client, channel):
                client.channels[channel.id] = channel

    def _unadvertise(self, client: Client, msg: Dict[str, Any]) -> None:
        for channel_id in message_list(msg, 'channelIds'):
            channel = client.channels.pop(int(channel_id), None)
            if channel is not None:
                self.server.call(self.listener.on_client_unadvertise, client, channel)

    def on_message_data(self, client: Client, raw: bytes) -> None:
        """Publish a client's MessageData frame (loop thread)."""
        if p.CLIENT_PUBLISH not in self.server.capabilities:
            raise p.ProtocolError('MessageData: the server does not offer clientPublish')
        message = p.parse_client_message(raw)
        channel = client.channels.get(message.channel_id)
        if channel is None:
            return      # refused at advertise (the client was told) or never advertised
        self.server.call(self.listener.on_message_data, client, channel, message.payload)
