# SPDX-License-Identifier: Apache-2.0
from aimrt_bridge.http_channel import channel_path, parse_address, parse_channel_path
import pytest


def test_path_encoding_matches_aimrt_url_encode():
    assert channel_path('test_topic', 'pb:aimrt.protocols.sensor.JointState') == \
        '/channel/test_topic/pb%3Aaimrt.protocols.sensor.JointState'
    assert channel_path('/a b~c', 'x') == '/channel/%2Fa+b~c/x'
    assert parse_channel_path('/channel/%2Fa+b~c/pb%3AX') == ('/a b~c', 'pb:X')
    assert parse_channel_path('/rpc/x/y') is None
    assert parse_channel_path('/channel/only') is None


def test_parse_address():
    assert parse_address('127.0.0.1:50080') == ('127.0.0.1', 50080)
    assert parse_address('http://127.0.0.1:1/') == ('127.0.0.1', 1)
    for bad in ('127.0.0.1', 'x:0', ':80', 'h:99999'):
        with pytest.raises(ValueError):
            parse_address(bad)
