# SPDX-License-Identifier: Apache-2.0
import errno
import http.client
import socket

from aimrt_protocols_py import http_channel
from aimrt_protocols_py.http_channel import channel_path, parse_address, parse_channel_path
import pytest
from workspace_testing import free_port


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


def _bind_error(port):
    """Return the errno of binding a server to port, or None when the port is free."""
    with socket.socket() as server:
        server.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            server.bind(('127.0.0.1', port))
        except OSError as e:
            return e.errno
    return None


def test_a_connection_to_itself_is_refused_and_frees_the_port(monkeypatch):
    # A connect to a port nobody listens on can get that port as its own source port and
    # connect to itself; the kernel picks it by chance, the test pins it.
    port = free_port()

    class SelfConnecting(http.client.HTTPConnection):
        def __init__(self, host, port, timeout):
            super().__init__(host, port, timeout=timeout, source_address=(host, port))

    # The set-up does reach itself, and such a socket keeps a server off the port.
    probe = SelfConnecting('127.0.0.1', port, 2.0)
    probe.connect()
    assert probe.sock.getsockname() == probe.sock.getpeername()
    assert _bind_error(port) == errno.EADDRINUSE
    probe.close()

    port = free_port()  # the closed probe leaves its port in TIME_WAIT
    monkeypatch.setattr(http_channel.http.client, 'HTTPConnection', SelfConnecting)
    publisher = http_channel.ChannelPublisher(f'127.0.0.1:{port}', 2.0)
    with pytest.raises(ConnectionRefusedError, match='reached itself'):
        publisher.post('t', 'pb:x', b'', 'application/protobuf')
    assert _bind_error(port) is None
