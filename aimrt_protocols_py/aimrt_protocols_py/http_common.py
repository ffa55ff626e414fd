# SPDX-License-Identifier: Apache-2.0
"""
AimRT's `http` channel URLs and peer addresses, shared by the client and the server.

A publisher POSTs each message to http://{ip:port}/channel/{TOPIC}/{MSG_TYPE}
with TOPIC and MSG_TYPE URL-encoded the way AimRT's UrlEncode does it (letters,
digits and -_.~ kept, space -> '+', everything else %XX upper case; that is
exactly urllib's quote_plus with safe=''), e.g. pb:aimrt.protocols.sensor.JointState
-> pb%3Aaimrt.protocols.sensor.JointState.
"""
from typing import Optional, Tuple
from urllib.parse import quote_plus, unquote_plus

CHANNEL_PREFIX = '/channel/'


def channel_path(topic: str, msg_type: str) -> str:
    """Path of an AimRT channel POST: /channel/{TOPIC}/{MSG_TYPE}, URL-encoded as AimRT does."""
    return CHANNEL_PREFIX + quote_plus(topic, safe='') + '/' + quote_plus(msg_type, safe='')


def parse_channel_path(path: str) -> Optional[Tuple[str, str]]:
    """(topic, msg_type) of a /channel/{TOPIC}/{MSG_TYPE} path, or None."""
    path = path.split('?', 1)[0]
    if not path.startswith(CHANNEL_PREFIX):
        return None
    parts = path[len(CHANNEL_PREFIX):].split('/')
    if len(parts) != 2 or not parts[0] or not parts[1]:
        return None
    return unquote_plus(parts[0]), unquote_plus(parts[1])


def parse_address(address: str) -> Tuple[str, int]:
    """'ip:port' or 'http://ip:port' -> (host, port); ValueError when malformed."""
    text = address.strip()
    if text.startswith('http://'):
        text = text[len('http://'):]
    text = text.rstrip('/')
    host, sep, port = text.rpartition(':')
    if not sep or not host or not port.isdigit() or not 0 < int(port) < 65536:
        raise ValueError(f'address {address!r} is not ip:port')
    return host.strip('[]'), int(port)


#: Request paths whose parse is kept (a peer sends the same few paths over and over).
PATH_CACHE_SIZE = 256
