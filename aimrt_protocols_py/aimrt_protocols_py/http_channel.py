# SPDX-License-Identifier: Apache-2.0
"""
AimRT's `http` channel backend (net plugin) as a wire protocol: both ends, by one name.

A publisher POSTs each message to http://{ip:port}/channel/{TOPIC}/{MSG_TYPE}
with TOPIC and MSG_TYPE URL-encoded the way AimRT's UrlEncode does it (letters,
digits and -_.~ kept, space -> '+', everything else %XX upper case; that is
exactly urllib's quote_plus with safe=''), e.g. pb:aimrt.protocols.sensor.JointState
-> pb%3Aaimrt.protocols.sensor.JointState.  The body is the serialized message;
content-type says application/protobuf or application/json.  The subscriber
answers 200 (AimRT's publisher only logs non-200 answers).

Both sides of the channel are shared by every AimRT peer in the workspace
(aimrt_bridge, aimrt_mujoco_sim). They live in one module per role; this module
re-exports them under the name callers have always imported:

- http_common: the channel URL encoding (`channel_path`, `parse_channel_path`) and
  `parse_address`;
- http_client: `ChannelPublisher`, the blocking kept-alive (pipelining) publisher;
- http_request: one HTTP/1.1 request header block checked, and the answers;
- http_server: `ChannelServer`, the subscriber (uvloop event loop, deadlines, size limits,
  connection cap and eviction).
"""
# `http` stays an attribute here: tests patch http_channel.http.client.HTTPConnection.
import http.client  # noqa: F401

from aimrt_protocols_py.http_client import ChannelPublisher
from aimrt_protocols_py.http_common import (channel_path, CHANNEL_PREFIX, parse_address,
                                            parse_channel_path)
from aimrt_protocols_py.http_request import MAX_REASON_CHARS
from aimrt_protocols_py.http_server import ChannelServer

__all__ = ['CHANNEL_PREFIX', 'ChannelPublisher', 'ChannelServer', 'MAX_REASON_CHARS',
           'channel_path', 'parse_address', 'parse_channel_path']
