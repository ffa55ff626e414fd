# SPDX-License-Identifier: Apache-2.0
"""
Pipelined requests, both ends of the http channel (issue 22).

ChannelServer answers every request of a pipelined stream, in order, on one connection.
ChannelPublisher.post_many pipelines once a peer has kept a connection alive, and still
delivers every message in order to peers that close after each answer, answer without a
Content-Length, or answer chunked.
"""

import socket
import threading

from aimrt_protocols_py.http_channel import ChannelPublisher, ChannelServer
import pytest

PATH = b'/channel/t/pb%3Ax'


def _post(body):
    return (b'POST ' + PATH + b' HTTP/1.1\r\nContent-Length: %d\r\n\r\n' % len(body)) + body


def _read_answers(sock, count):
    """Status codes of `count` answers (each with a Content-Length body)."""
    buf = b''
    statuses = []
    while len(statuses) < count:
        end = buf.find(b'\r\n\r\n')
        if end < 0:
            data = sock.recv(65536)
            assert data, 'connection closed after %d answers' % len(statuses)
            buf += data
            continue
        head = buf[:end].decode()
        length = int(head.lower().split('content-length:')[1].split('\r\n')[0])
        if len(buf) < end + 4 + length:
            buf += sock.recv(65536)
            continue
        statuses.append(int(head.split(' ')[1]))
        buf = buf[end + 4 + length:]
    return statuses, buf


def test_server_answers_a_pipelined_stream_in_order():
    bodies = []

    def handle(topic, msg_type, ctype, body):
        bodies.append(body)
        return (200, 'OK') if int(body) % 3 else (422, 'no')
    server = ChannelServer('127.0.0.1', 0, handle)
    server.start()
    try:
        with socket.create_connection(('127.0.0.1', server.port), timeout=10) as sock:
            stream = b''.join(_post(b'%d' % i) for i in range(300))
            # in pieces that cut requests anywhere, as TCP may deliver them
            for start in range(0, len(stream), 997):
                sock.sendall(stream[start:start + 997])
            statuses, rest = _read_answers(sock, 300)
            # the connection stays open: one more request is answered
            sock.sendall(_post(b'1'))
            more, _ = _read_answers(sock, 1)
    finally:
        server.stop()
    assert bodies[:300] == [b'%d' % i for i in range(300)]
    assert statuses == [200 if i % 3 else 422 for i in range(300)]
    assert rest == b'' and more == [200]


class RawPeer:
    """A subscriber on a raw socket: records what each recv held, answers as told."""

    def __init__(self, answer, close_after=()):
        self.answer = answer        # callable(request index) -> answer bytes
        self.close_after = set(close_after)     # request indexes to close the connection after
        self.sock = socket.create_server(('127.0.0.1', 0))
        self.port = self.sock.getsockname()[1]
        self.bodies = []
        self.connections = 0
        self.requests_per_read = []
        threading.Thread(target=self._accept, daemon=True).start()

    def _accept(self):
        while True:
            try:
                conn, _ = self.sock.accept()
            except OSError:
                return
            self.connections += 1
            threading.Thread(target=self._serve, args=(conn,), daemon=True).start()

    def _serve(self, conn):
        buf = b''
        with conn:
            while True:
                try:
                    data = conn.recv(65536)
                except OSError:
                    return
                if not data:
                    return
                buf += data
                out, n, close = b'', 0, False
                while True:
                    end = buf.find(b'\r\n\r\n')
                    if end < 0:
                        break
                    length = int(buf[:end].lower().split(b'content-length: ')[1]
                                 .split(b'\r\n')[0])
                    if len(buf) < end + 4 + length:
                        break
                    self.bodies.append(buf[end + 4:end + 4 + length])
                    buf = buf[end + 4 + length:]
                    answer = self.answer(len(self.bodies) - 1)
                    out += answer
                    n += 1
                    if (b'close' in answer.lower() or b'HTTP/1.0' in answer or
                            len(self.bodies) - 1 in self.close_after):
                        close = True
                        break
                if n:
                    self.requests_per_read.append(n)
                    conn.sendall(out)
                if close:
                    return

    def close(self):
        self.sock.close()


KEEP_ALIVE = b'HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok'
CLOSE = b'HTTP/1.1 200 OK\r\nConnection: close\r\nContent-Length: 0\r\n\r\n'
HTTP10_NO_LENGTH = b'HTTP/1.0 200 OK\r\nContent-Type: text/plain\r\n\r\n'
CHUNKED = (b'HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n'
           b'2;x=y\r\nok\r\n0\r\nTrailer: 1\r\n\r\n')


@pytest.mark.parametrize('answer, pipelined', [
    (KEEP_ALIVE, True), (CHUNKED, True), (CLOSE, False), (HTTP10_NO_LENGTH, False)])
def test_publisher_pipelines_where_the_peer_allows(answer, pipelined):
    peer = RawPeer(lambda i: answer if i != 3 else answer.replace(b'200 OK', b'422 No'))
    publisher = ChannelPublisher('127.0.0.1:%d' % peer.port, 5.0)
    try:
        first = publisher.post_many([('t', 'pb:x', b'first', 'application/protobuf')])
        items = [('t', 'pb:x', b'%d' % i, 'application/protobuf') for i in range(1, 200)]
        results = publisher.post_many(items)
    finally:
        publisher.close()
        peer.close()
    assert first == [200]
    assert results == [422 if i == 3 else 200 for i in range(1, 200)]
    assert peer.bodies == [b'first'] + [b'%d' % i for i in range(1, 200)]
    if pipelined:
        assert peer.connections == 1
        assert max(peer.requests_per_read) > 1     # several requests written at once
    else:
        assert peer.connections == 200
        assert max(peer.requests_per_read) == 1


def test_publisher_retries_once_after_the_peer_closed_a_kept_alive_connection():
    # the peer answers the first request (keep-alive), then closes the connection unasked
    peer = RawPeer(lambda i: KEEP_ALIVE, close_after={0})
    publisher = ChannelPublisher('127.0.0.1:%d' % peer.port, 5.0)
    try:
        assert publisher.post('t', 'pb:x', b'a', 'application/protobuf') == 200
        assert publisher.post_many([('t', 'pb:x', b'b', 'application/protobuf'),
                                    ('t', 'pb:x', b'c', 'application/protobuf')]) == [200, 200]
    finally:
        publisher.close()
        peer.close()
    assert peer.bodies == [b'a', b'b', b'c']
    assert peer.connections == 2


def test_publisher_fails_every_unanswered_item_on_a_dead_peer():
    listener = socket.create_server(('127.0.0.1', 0))   # accepts, never answers
    publisher = ChannelPublisher('127.0.0.1:%d' % listener.getsockname()[1], 0.2)
    try:
        results = publisher.post_many([('t', 'pb:x', b'%d' % i, 'application/protobuf')
                                       for i in range(3)])
    finally:
        publisher.close()
        listener.close()
    assert len(results) == 3 and all(isinstance(r, OSError) for r in results), results
