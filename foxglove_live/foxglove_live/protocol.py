# SPDX-License-Identifier: Apache-2.0
"""
Foxglove WebSocket protocol v1 (foxglove/ws-protocol docs/spec.md): names and binary frames.

One protocol, two subprotocol names: `foxglove.websocket.v1` (Foxglove Studio 1.x,
Lichtblick up to 1.21, ws-protocol's own client) and `foxglove.sdk.v1` (current Foxglove,
Lichtblick from 1.22, foxglove-sdk). Both carry exactly the messages below.

Binary frames start with a 1-byte opcode; integers are little endian.
Server to client: 0x01 MessageData (uint32 subscription id, uint64 log time [ns], payload),
0x02 Time (uint64 [ns]), 0x03 ServiceCallResponse (uint32 service id, uint32 call id,
uint32 encoding length, encoding, payload), 0x04 FetchAssetResponse (uint32 request id,
uint8 status 0 ok / 1 error, uint32 error length, error, data).
Client to server: 0x01 MessageData (uint32 channel id, payload), 0x02 ServiceCallRequest
(uint32 service id, uint32 call id, uint32 encoding length, encoding, payload).
"""

import struct
from typing import NamedTuple

SUBPROTOCOL_SDK = 'foxglove.sdk.v1'
SUBPROTOCOL_LEGACY = 'foxglove.websocket.v1'
# Preference when a client offers both: the current name.
SUBPROTOCOLS = (SUBPROTOCOL_SDK, SUBPROTOCOL_LEGACY)

# Capability names of serverInfo.
CLIENT_PUBLISH = 'clientPublish'
PARAMETERS = 'parameters'
PARAMETERS_SUBSCRIBE = 'parametersSubscribe'
SERVICES = 'services'
CONNECTION_GRAPH = 'connectionGraph'
ASSETS = 'assets'
TIME = 'time'
CAPABILITIES = (CLIENT_PUBLISH, PARAMETERS, PARAMETERS_SUBSCRIBE, SERVICES, CONNECTION_GRAPH,
                ASSETS, TIME)
# Capabilities through which a client changes the robot (left out with read_only).
WRITING_CAPABILITIES = (CLIENT_PUBLISH, PARAMETERS, PARAMETERS_SUBSCRIBE, SERVICES)

# Status levels.
INFO, WARNING, ERROR = 0, 1, 2

# Opcodes.
MESSAGE_DATA = 0x01
TIME_DATA = 0x02
SERVICE_CALL_RESPONSE = 0x03
FETCH_ASSET_RESPONSE = 0x04
CLIENT_MESSAGE_DATA = 0x01
CLIENT_SERVICE_CALL = 0x02

_MESSAGE_HEADER = struct.Struct('<BIQ')
_TIME = struct.Struct('<BQ')
_CLIENT_MESSAGE = struct.Struct('<BI')
_SERVICE_CALL = struct.Struct('<BIII')
_ASSET = struct.Struct('<BIBI')


class ProtocolError(ValueError):
    """A client frame that breaks the protocol (its text goes back to that client)."""


def message_header(subscription_id: int, log_time_ns: int) -> bytes:
    """Return the 13 bytes that precede a MessageData payload."""
    return _MESSAGE_HEADER.pack(MESSAGE_DATA, subscription_id, log_time_ns)


def time_frame(time_ns: int) -> bytes:
    """Return a Time frame."""
    return _TIME.pack(TIME_DATA, time_ns)


def service_call_response(service_id: int, call_id: int, encoding: str,
                          payload: bytes) -> bytes:
    """Return a ServiceCallResponse frame."""
    enc = encoding.encode()
    return _SERVICE_CALL.pack(SERVICE_CALL_RESPONSE, service_id, call_id, len(enc)) + enc \
        + payload


def fetch_asset_response(request_id: int, data: bytes = b'', error: str = '') -> bytes:
    """Return a FetchAssetResponse frame: status 0 with `data`, or 1 with `error`."""
    text = error.encode()
    return _ASSET.pack(FETCH_ASSET_RESPONSE, request_id, 1 if error else 0, len(text)) + text \
        + (b'' if error else data)


class ClientMessage(NamedTuple):
    """A client's MessageData frame."""

    channel_id: int
    payload: bytes


class ServiceCall(NamedTuple):
    """A client's ServiceCallRequest frame."""

    service_id: int
    call_id: int
    encoding: str
    payload: bytes


def parse_client_message(frame: bytes) -> ClientMessage:
    """Decode a client MessageData frame; ProtocolError if truncated."""
    if len(frame) < _CLIENT_MESSAGE.size:
        raise ProtocolError(f'MessageData frame of {len(frame)} bytes is truncated')
    _, channel_id = _CLIENT_MESSAGE.unpack_from(frame)
    return ClientMessage(channel_id, frame[_CLIENT_MESSAGE.size:])


def parse_service_call(frame: bytes) -> ServiceCall:
    """Decode a client ServiceCallRequest frame; ProtocolError if truncated."""
    if len(frame) < _SERVICE_CALL.size:
        raise ProtocolError(f'ServiceCallRequest frame of {len(frame)} bytes is truncated')
    _, service_id, call_id, n = _SERVICE_CALL.unpack_from(frame)
    start = _SERVICE_CALL.size
    if len(frame) < start + n:
        raise ProtocolError('ServiceCallRequest encoding runs past the frame')
    try:
        encoding = frame[start:start + n].decode('utf-8')
    except UnicodeDecodeError:
        raise ProtocolError('ServiceCallRequest encoding is not UTF-8') from None
    return ServiceCall(service_id, call_id, encoding, frame[start + n:])
