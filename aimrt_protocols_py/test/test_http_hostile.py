# SPDX-License-Identifier: Apache-2.0
"""
The AimRT http-channel server against hostile clients, over raw sockets.

Property tests (hypothesis, derandomized): random bytes, bad request lines, wrong
methods, missing/invalid/huge Content-Length, truncated bodies. Every answer is a 4xx
(or the connection is closed), nothing malformed reaches the handler, the server closes
what it does not answer within its timeouts, and a valid request still works. Plus
slowloris-style and idle connections (no thread per connection, bounded), quiet client
resets.
"""

import socket
import struct
import threading
import time

from aimrt_protocols_py.http_channel import ChannelServer
from hypothesis import given, HealthCheck, settings
from hypothesis import strategies as st
import pytest

MAX_BODY = 64 * 1024
IDLE_S = 1
REQUEST_S = 2.0
#: How long the server may take to drop a connection it will not answer.
CLOSE_BOUND_S = IDLE_S + REQUEST_S + 3.0
PATH = b'/channel/joint_state/pb%3Aaimrt.protocols.sensor.JointState'
FUZZ = settings(derandomize=True, deadline=None, database=None,
                suppress_health_check=[HealthCheck.too_slow,
                                       HealthCheck.function_scoped_fixture])


class Server:
    """A ChannelServer whose handler records what reached it."""

    def __init__(self):
        self.calls = []
        self.logs = []
        self.threads_before = threading.active_count()
        self.server = ChannelServer(
            '127.0.0.1', 0, self._handle, max_body_bytes=MAX_BODY, threads=2,
            connection_limit=16, idle_timeout_sec=IDLE_S, request_timeout_sec=REQUEST_S,
            max_header_bytes=8 * 1024, on_log=lambda level, text: self.logs.append(text))
        self.server.start()
        self.port = self.server.port

    def _handle(self, topic, msg_type, content_type, body):
        self.calls.append((topic, msg_type, content_type, body))
        return 200, 'OK'


@pytest.fixture(scope='module')
def srv():
    s = Server()
    yield s
    s.server.stop()


def exchange(port, data, half_close=True, timeout=CLOSE_BOUND_S):
    """Send data; return (first status code or None, whether the server closed)."""
    sock = socket.create_connection(('127.0.0.1', port), timeout=timeout)
    try:
        try:
            sock.sendall(data)
            if half_close:
                sock.shutdown(socket.SHUT_WR)
        except OSError:         # the server may close before reading everything
            pass
        out = b''
        closed = False
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            try:
                chunk = sock.recv(65536)
            except socket.timeout:
                break
            except ConnectionResetError:
                closed = True
                break
            if not chunk:
                closed = True
                break
            out += chunk
            # one keep-alive answer is all a single request gets
            if not half_close and b'\r\n\r\n' in out:
                break
    finally:
        sock.close()
    statuses = [int(line.split()[1]) for line in out.split(b'\r\n')
                if line.startswith(b'HTTP/1.') and len(line.split()) > 1 and
                line.split()[1].isdigit() and int(line.split()[1]) >= 200]
    return (statuses[0] if statuses else None), closed


def request(method=b'POST', path=PATH, version=b'HTTP/1.1', headers=(), body=b''):
    lines = [method + b' ' + path + b' ' + version] + list(headers)
    return b'\r\n'.join(lines) + b'\r\n\r\n' + body


def valid_request(body):
    return request(headers=[b'Content-Type: application/protobuf',
                            b'Content-Length: %d' % len(body)], body=body)


def assert_still_serves(srv):
    """Assert a valid request still reaches the handler with its exact body."""
    before = len(srv.calls)
    status, _ = exchange(srv.port, valid_request(b'\x0a\x00'))
    assert status == 200
    assert srv.calls[before:] == [('joint_state', 'pb:aimrt.protocols.sensor.JointState',
                                   'application/protobuf', b'\x0a\x00')]


@settings(FUZZ, max_examples=150)
@given(data=st.binary(max_size=2048))
def test_random_bytes_get_4xx_or_a_close_and_never_reach_the_handler(srv, data):
    before = len(srv.calls)
    status, closed = exchange(srv.port, data)
    assert status is None or 400 <= status < 500, (data, status)
    assert closed
    assert len(srv.calls) == before


METHODS = st.one_of(st.sampled_from([b'GET', b'PUT', b'DELETE', b'PATCH', b'OPTIONS',
                                     b'CONNECT', b'TRACE']),
                    st.from_regex(rb'\A[A-Z]{1,12}\Z').filter(lambda m: m != b'POST'))


@settings(FUZZ, max_examples=40)
@given(method=METHODS, body=st.binary(max_size=64))
def test_wrong_method_gets_405(srv, method, body):
    before = len(srv.calls)
    status, _ = exchange(srv.port, request(method, headers=[b'Content-Length: %d' % len(body)],
                                           body=body))
    assert status == 405, (method, status)
    assert len(srv.calls) == before


BAD_LINES = st.one_of(
    # no version, an unsupported version, extra words, bad spacing, lower-case method
    st.builds(lambda p: b'POST ' + p, st.just(PATH)),
    st.builds(lambda v: b'POST ' + PATH + b' ' + v,
              st.from_regex(rb'\AHTTP/[02-9]\.[0-9]\Z|\AHTTP/1\.[2-9]\Z|\A[A-Z]{1,8}/1\.1\Z')),
    st.builds(lambda w: b'POST ' + PATH + b' HTTP/1.1 ' + w, st.from_regex(rb'\A[a-z]{1,8}\Z')),
    st.builds(lambda n: b'POST' + b' ' * n + PATH + b' HTTP/1.1', st.integers(2, 5)),
    st.builds(lambda m: m + b' ' + PATH + b' HTTP/1.1', st.from_regex(rb'\A[a-z]{1,8}\Z')),
    st.binary(min_size=1, max_size=200).filter(lambda b: b'\n' not in b and b'\r' not in b),
)


@settings(FUZZ, max_examples=80)
@given(line=BAD_LINES)
def test_bad_request_line_gets_400(srv, line):
    before = len(srv.calls)
    status, closed = exchange(srv.port, line + b'\r\nContent-Length: 0\r\n\r\n')
    assert status == 400, (line, status)
    assert closed
    assert len(srv.calls) == before


@settings(FUZZ, max_examples=40)
@given(case=st.one_of(
    st.tuples(st.just(411), st.just(None)),
    st.tuples(st.just(413), st.integers(MAX_BODY, 10 ** 30).map(str)),
    st.tuples(st.just(400), st.from_regex(
        r'\A(-[0-9]{1,5}|[0-9]{1,3}[a-z+ .][0-9a-z]{1,3}|[a-z+.][0-9a-z]{0,3})\Z')),
))
def test_content_length_missing_huge_or_invalid_gets_411_413_400(srv, case):
    expected, length = case
    headers = [] if length is None else [b'Content-Length: ' + length.encode()]
    before = len(srv.calls)
    status, _ = exchange(srv.port, request(headers=headers))
    assert status == expected, (length, status)
    assert len(srv.calls) == before


@settings(FUZZ, max_examples=10)
@given(body=st.binary(max_size=512), missing=st.integers(1, 10 ** 4),
       half_close=st.booleans())
def test_truncated_body_is_dropped_within_the_timeouts(srv, body, missing, half_close):
    before = len(srv.calls)
    data = request(headers=[b'Content-Length: %d' % (len(body) + missing)], body=body)
    status, closed = exchange(srv.port, data, half_close=half_close)
    assert status is None and closed
    assert len(srv.calls) == before


@settings(FUZZ, max_examples=40)
@given(body=st.binary(max_size=4096))
def test_valid_post_reaches_the_handler_with_its_exact_body(srv, body):
    before = len(srv.calls)
    status, _ = exchange(srv.port, valid_request(body))
    assert status == 200
    assert srv.calls[before:] == [('joint_state', 'pb:aimrt.protocols.sensor.JointState',
                                   'application/protobuf', body)]


def test_slow_and_idle_connections_take_no_threads_and_are_closed(srv):
    threads = threading.active_count()
    socks = []
    try:
        for i in range(300):        # far above connection_limit (16)
            s = socket.socket()
            s.setblocking(False)
            s.connect_ex(('127.0.0.1', srv.port))
            socks.append(s)
        time.sleep(0.5)
        for s in socks[:40]:        # slowloris: a header byte now and then
            try:
                s.send(b'POST /channel/a/b HTTP/1.1\r\nX-')
            except OSError:
                pass
        for _ in range(6):
            time.sleep(0.5)
            for s in socks[:40]:
                try:
                    s.send(b'a')
                except OSError:
                    pass
            # no thread per connection: the pool is fixed
            assert threading.active_count() <= threads + 2
        # The server took the first connection_limit (16) connections, all slowloris ones:
        # trickling bytes must not keep them open past the whole-request timeout.
        closed = set()
        deadline = time.monotonic() + CLOSE_BOUND_S
        while len(closed) < 16 and time.monotonic() < deadline:
            closed |= {i for i, s in enumerate(socks[:40]) if i in closed or server_closed(s)}
            time.sleep(0.2)
        assert len(closed) >= 16, sorted(closed)
    finally:
        for s in socks:
            s.close()
    assert_still_serves(srv)


def server_closed(sock):
    """Whether the server has closed this non-blocking socket (EOF or reset), reading all."""
    while True:
        try:
            data = sock.recv(4096)
        except BlockingIOError:
            return False
        except OSError:
            return True
        if not data:
            return True


def test_client_resets_are_quiet(srv, capfd):
    before_logs = list(srv.logs)
    for data in (b'', b'POST /channel/a/b HTTP/1.1\r\nContent-Le', valid_request(b'x' * 1000),
                 request(headers=[b'Content-Length: 50'], body=b'abc')):
        sock = socket.create_connection(('127.0.0.1', srv.port))
        sock.sendall(data)
        # SO_LINGER 0: close() sends a RST instead of a FIN
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack('ii', 1, 0))
        sock.close()
    time.sleep(0.5)
    assert_still_serves(srv)
    out, err = capfd.readouterr()
    assert 'Traceback' not in out + err and err == ''
    assert [line for line in srv.logs if line not in before_logs and 'Socket' in line] == []


def test_server_stops_promptly_with_connections_open():
    server = Server()
    assert isinstance(server.port, int)
    socks = [socket.create_connection(('127.0.0.1', server.port)) for _ in range(5)]
    socks[0].sendall(b'POST /channel/a/b HTTP/1.1\r\nContent-Length: 10\r\n\r\nab')
    try:
        server.server.stop()
        with pytest.raises(OSError):
            socket.create_connection(('127.0.0.1', server.port), timeout=1).close()
    finally:
        for s in socks:
            s.close()
