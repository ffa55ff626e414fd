# SPDX-License-Identifier: Apache-2.0
"""
The publisher end of AimRT's `http` channel: a blocking client over one kept-alive connection.

Each message is one POST to /channel/{TOPIC}/{MSG_TYPE} (http_common.channel_path); the
body is the serialized message, content-type application/protobuf or application/json.
The subscriber answers 200 (AimRT's publisher only logs non-200 answers).
"""
import http.client
import socket
import struct
import threading
from typing import cast, Dict, Iterable, List, Optional, Tuple, Union

from aimrt_protocols_py.http_common import channel_path, parse_address, PATH_CACHE_SIZE

#: Largest answer header block read from a subscriber.
_MAX_ANSWER_HEAD = 64 * 1024


def _printable(data: bytes, limit: int = 200) -> str:
    """Printable text of at most `limit` characters of peer bytes (for errors)."""
    return data[:limit].decode('latin-1').encode('unicode_escape').decode('ascii')


class ChannelPublisher:
    """
    POSTs channel messages to one AimRT http subscriber over a kept-alive connection.

    ``post_many`` pipelines: once the peer has answered on a connection without closing it
    (an HTTP/1.1 keep-alive peer), every request of a batch is written at once and the
    answers are read in order. On a new connection the first request goes alone.
    """

    def __init__(self, address: str, timeout_sec: float,
                 user_agent: str = 'aimrt_protocols_py') -> None:
        self.host, self.port = parse_address(address)
        self.address = f'{self.host}:{self.port}'
        self._timeout = timeout_sec
        self._conn: Optional[http.client.HTTPConnection] = None
        self._rbuf = bytearray()
        #: True while the connection is open and its peer has kept it alive after an answer.
        self.pipelining = False
        host = f'[{self.host}]' if ':' in self.host else self.host
        self._host_line = f'Host: {host}:{self.port}\r\nUser-Agent: {user_agent}\r\n'
        # (topic, msg_type, content_type) -> request head before the length
        self._heads: Dict[Tuple[str, str, str], bytes] = {}
        self._lock = threading.Lock()

    def post(self, topic: str, msg_type: str, body: bytes, content_type: str) -> int:
        """Send one message; return the HTTP status. Raises OSError/HTTPException on failure."""
        result = self.post_many([(topic, msg_type, body, content_type)])[0]
        if isinstance(result, Exception):
            raise result
        return result

    def post_many(self, items: Iterable[Tuple[str, str, bytes, str]]
                  ) -> List[Union[int, Exception]]:
        """
        Send (topic, msg_type, body, content_type) items in order, pipelined where allowed.

        Returns one result per item: its HTTP status, or the OSError/HTTPException that
        failed it. A kept-alive connection may have been closed by the peer since the last
        message: the requests it did not answer get one retry on a fresh connection then.
        A fresh connection that failed is not retried (the peer is down; each connect to
        it costs a timeout or a port): the items not answered fail with its error.
        """
        requests = [self._request(*item) for item in items]
        results: List[Union[int, Exception]] = []
        retried = False
        with self._lock:
            while len(results) < len(requests):
                kept_alive = self._conn is not None
                try:
                    if not kept_alive:
                        self._conn = self._connect()
                        self._rbuf = bytearray()
                        self.pipelining = False
                    todo = requests[len(results):] if self.pipelining else \
                        requests[len(results):len(results) + 1]
                    cast(http.client.HTTPConnection, self._conn).sock.sendall(b''.join(todo))
                    for _ in todo:
                        status, close = self._read_answer()
                        results.append(status)
                        if close:
                            self.close_locked()
                            break
                        self.pipelining = True
                except (OSError, http.client.HTTPException) as exc:
                    self.close_locked()
                    if kept_alive and not retried:
                        retried = True
                        continue
                    results += [exc] * (len(requests) - len(results))
        return results

    def _request(self, topic: str, msg_type: str, body: bytes, content_type: str) -> bytes:
        key = (topic, msg_type, content_type)
        head = self._heads.get(key)
        if head is None:
            head = (f'POST {channel_path(topic, msg_type)} HTTP/1.1\r\n{self._host_line}'
                    f'Content-Type: {content_type}\r\nContent-Length: ').encode('latin-1')
            if len(self._heads) >= PATH_CACHE_SIZE:
                self._heads.clear()
            self._heads[key] = head
        return b'%s%d\r\n\r\n%s' % (head, len(body), body)

    def _fill(self, wanted: int) -> None:
        """Read until the buffer holds `wanted` bytes; RemoteDisconnected at end of stream."""
        while len(self._rbuf) < wanted:
            data = cast(http.client.HTTPConnection, self._conn).sock.recv(65536)
            if not data:
                raise http.client.RemoteDisconnected(
                    'the peer closed the connection without an answer')
            self._rbuf += data

    def _read_answer(self) -> Tuple[int, bool]:
        """(status, close) of the next answer on the connection; its body is skipped."""
        buf = self._rbuf
        while True:
            end = buf.find(b'\r\n\r\n')
            while end < 0:
                if len(buf) > _MAX_ANSWER_HEAD:
                    raise http.client.LineTooLong('answer header block')
                self._fill(len(buf) + 1)
                end = buf.find(b'\r\n\r\n')
            lines = bytes(buf[:end]).split(b'\r\n')
            del buf[:end + 4]
            version, _, rest = lines[0].partition(b' ')
            code = rest[:3]
            if not version.startswith(b'HTTP/1.') or len(code) != 3 or not code.isdigit():
                raise http.client.BadStatusLine(_printable(lines[0]))
            status = int(code)
            close = version == b'HTTP/1.0'
            length = None
            chunked = False
            for line in lines[1:]:
                name, _, value = line.partition(b':')
                name = name.strip().lower()
                value = value.strip().lower()
                if name == b'content-length':
                    if not value.isdigit():
                        raise http.client.HTTPException('bad Content-Length in the answer')
                    length = int(value)
                elif name == b'connection':
                    if b'close' in value:
                        close = True
                    elif b'keep-alive' in value:
                        close = False
                elif name == b'transfer-encoding':
                    chunked = b'chunked' in value
            if status >= 200:
                break
            # 1xx (100 Continue): the real answer follows
        if status in (204, 304):
            return status, close
        if chunked:
            self._skip_chunks()
        elif length is None:     # the body runs to the end of the stream
            while True:
                data = cast(http.client.HTTPConnection, self._conn).sock.recv(65536)
                if not data:
                    break
            buf.clear()
            return status, True
        else:
            self._fill(length)
            del buf[:length]
        return status, close

    def _skip_chunks(self) -> None:
        buf = self._rbuf
        while True:
            end = buf.find(b'\r\n')
            while end < 0:
                self._fill(len(buf) + 1)
                end = buf.find(b'\r\n')
            try:
                size = int(bytes(buf[:end]).split(b';')[0], 16)
            except ValueError:
                raise http.client.HTTPException('bad chunk size in the answer') from None
            del buf[:end + 2]
            if size == 0:       # trailer lines up to an empty one
                while True:
                    end = buf.find(b'\r\n')
                    while end < 0:
                        self._fill(len(buf) + 1)
                        end = buf.find(b'\r\n')
                    del buf[:end + 2]
                    if end == 0:
                        return
            self._fill(size + 2)
            del buf[:size + 2]

    def _connect(self) -> http.client.HTTPConnection:
        """
        Open the connection; ConnectionRefusedError when it reached itself.

        The AimRT ports (50080, 50081) lie in Linux's ephemeral range. While nobody listens
        on the target port, a retried connect to a local address can be handed that very
        port as its source and connect to itself (TCP simultaneous open). It would then
        hold the port, so the subscriber starting later could not bind it
        ('Address already in use').
        """
        conn = http.client.HTTPConnection(self.host, self.port, timeout=self._timeout)
        conn.connect()
        if conn.sock.getsockname() == conn.sock.getpeername():
            # Reset rather than close: a closed connection would keep the port in
            # TIME_WAIT for a minute, and the subscriber still could not bind it.
            conn.sock.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack('ii', 1, 0))
            conn.close()
            raise ConnectionRefusedError(f'nothing listens on {self.address} (the '
                                         'connection reached itself)')
        return conn

    def close_locked(self) -> None:
        """Close the connection; the caller holds the lock."""
        self.pipelining = False
        if self._conn is not None:
            self._conn.close()
            self._conn = None

    def close(self) -> None:
        """Close the kept-alive connection (the next post opens a new one)."""
        with self._lock:
            self.close_locked()
