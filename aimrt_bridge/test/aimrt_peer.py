# SPDX-License-Identifier: Apache-2.0
"""
An independent AimRT http-channel peer for the tests: standard library only.

It follows AimRT's documented http channel protocol and writes/reads protobuf
bytes by hand from the field numbers (no generated code, no protobuf runtime).
The subscriber side (records every POST, answers 200) is workspace_testing.http_sink.
"""
import http.client
import struct
from urllib.parse import quote


# ---------------------------------------------------------------- protobuf by hand
def varint(n):
    n &= (1 << 64) - 1  # negative int32/int64 are sign-extended to 64 bits
    out = bytearray()
    while True:
        byte = n & 0x7F
        n >>= 7
        if n:
            out.append(byte | 0x80)
        else:
            out.append(byte)
            return bytes(out)


def field_varint(num, value):
    return varint(num << 3) + varint(value)


def field_double(num, value):
    return varint(num << 3 | 1) + struct.pack('<d', value)


def field_bytes(num, data):
    if isinstance(data, str):
        data = data.encode('utf-8')
    return varint(num << 3 | 2) + varint(len(data)) + data


def packed_doubles(num, values):
    return field_bytes(num, b''.join(struct.pack('<d', v) for v in values))


def packed_varints(num, values):
    return field_bytes(num, b''.join(varint(v) for v in values))


def header(ts, frame, seq=None):
    body = field_varint(1, ts) + field_bytes(2, frame)
    if seq is not None:  # AimRT >= 0.10 Header.sequence_num
        body += field_varint(3, seq)
    return body


def parse(data):
    """{field number: [values]}: varints as int, fixed64 as raw 8 bytes, LEN as bytes."""
    fields, i = {}, 0

    def read_varint():
        nonlocal i
        shift = result = 0
        while True:
            b = data[i]
            i += 1
            result |= (b & 0x7F) << shift
            shift += 7
            if not b & 0x80:
                return result
    while i < len(data):
        key = read_varint()
        num, wire = key >> 3, key & 7
        if wire == 0:
            value = read_varint()
        elif wire == 1:
            value, i = data[i:i + 8], i + 8
        elif wire == 2:
            n = read_varint()
            value, i = data[i:i + n], i + n
        else:
            raise ValueError(f'wire type {wire}')
        fields.setdefault(num, []).append(value)
    return fields


def as_double(raw):
    return struct.unpack('<d', raw)[0]


# ---------------------------------------------------------------- HTTP
def aimrt_path(topic, msg_type):
    # AimRT UrlEncode: keep alnum and -_.~, space as '+', the rest %XX
    return '/channel/' + quote(topic, safe='').replace('%20', '+') + '/' + \
        quote(msg_type, safe='').replace('%20', '+')


def post(port, topic, msg_type, body, content_type):
    """One AimRT-publisher POST; returns (status, response body)."""
    conn = http.client.HTTPConnection('127.0.0.1', port, timeout=5.0)
    try:
        conn.request('POST', aimrt_path(topic, msg_type), body=body,
                     headers={'Content-Type': content_type, 'User-Agent': 'aimrt'})
        rsp = conn.getresponse()
        return rsp.status, rsp.read()
    finally:
        conn.close()
