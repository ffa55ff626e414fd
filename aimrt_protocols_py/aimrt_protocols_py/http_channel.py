# SPDX-License-Identifier: Apache-2.0
"""
AimRT's `http` channel backend (net plugin) as a wire protocol.

A publisher POSTs each message to http://{ip:port}/channel/{TOPIC}/{MSG_TYPE}
with TOPIC and MSG_TYPE URL-encoded the way AimRT's UrlEncode does it (letters,
digits and -_.~ kept, space -> '+', everything else %XX upper case; that is
exactly urllib's quote_plus with safe=''), e.g. pb:aimrt.protocols.sensor.JointState
-> pb%3Aaimrt.protocols.sensor.JointState.  The body is the serialized message;
content-type says application/protobuf or application/json.  The subscriber
answers 200 (AimRT's publisher only logs non-200 answers).

Both sides of the channel live here, shared by every AimRT peer in the workspace
(aimrt_bridge, aimrt_mujoco_sim): ChannelServer (a subscriber) and ChannelPublisher.

The server side is one uvloop (libuv) event loop in its own thread that owns every
connection and frames requests itself (strict HTTP/1.1 request line and header syntax,
Content-Length bodies, keep-alive, pipelining); the handler runs inline in that loop, so
a request costs no thread hand-off and idle or slow clients cost no thread. Limits: a
whole-request header deadline (from the request's first byte: trickling does not extend
it; 408 then), a body deadline (from the end of the headers; the connection is closed),
a keep-alive idle timeout, a maximum header block (431) and body (413), and a cap on open
connections at which the oldest idle connection (else the oldest one) is closed so a new
client is served. Malformed requests get 400, 405, 411, 501; client resets are closed
quietly.
"""
import asyncio
import collections
from http import HTTPStatus
import http.client
import logging
import re
import resource
import socket
import struct
import threading
import time
from types import ModuleType
from typing import (Any, Callable, cast, Dict, Iterable, List, Literal, Optional, Tuple,
                    Union)
from urllib.parse import quote_plus, unquote_plus

try:
    import uvloop
except ImportError:     # pragma: no cover - pinned in requirements; asyncio works too
    uvloop = cast(ModuleType, None)

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
_PATH_CACHE_SIZE = 256
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
            if len(self._heads) >= _PATH_CACHE_SIZE:
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


#: Longest reason text sent back in an error answer.
MAX_REASON_CHARS = 200

# RFC 9110 syntax: methods are upper-case tokens here (as every standard method is),
# one space between the three parts, only HTTP/1.0 and HTTP/1.1.
_REQUEST_LINE = re.compile(rb'([A-Z]+) ([\x21-\x7e]+) HTTP/1\.([01])')
_TOKEN = re.compile(rb"[!#$%&'*+\-.^_`|~0-9A-Za-z]+")
_BAD_VALUE = re.compile(rb'[\x00-\x08\x0a-\x1f\x7f]')
_DIGITS = re.compile(rb'[0-9]+')
_OK = (b'HTTP/1.1 200 OK\r\nContent-Type: text/plain; charset=utf-8\r\n'
       b'Content-Length: 0\r\n\r\n')
_CONTINUE = b'HTTP/1.1 100 Continue\r\n\r\n'

#: (path, content_type, length, close) of a request whose body is awaited.
_Request = Tuple[str, str, int, bool]
#: _Request and expect_continue: a parsed request header block.
_Head = Tuple[str, str, int, bool, bool]

# connection states
_IDLE, _HEADER, _BODY, _CLOSED = range(4)


def _answer(status: int, reason: str, close: bool) -> bytes:
    payload = reason[:MAX_REASON_CHARS].encode('utf-8', 'replace')
    extra = b'Allow: POST\r\n' if status == 405 else b''
    if close:
        extra += b'Connection: close\r\n'
    return (b'HTTP/1.1 %d %s\r\nContent-Type: text/plain; charset=utf-8\r\n'
            b'Content-Length: %d\r\n%s\r\n' % (status, HTTPStatus(status).phrase.encode(),
                                               len(payload), extra)) + payload


class _Rejected(Exception):
    """A request answered with a 4xx/5xx and the connection closed."""

    def __init__(self, status: int, reason: str) -> None:
        super().__init__(reason)
        self.status, self.reason = status, reason


class _Connection(asyncio.Protocol):
    """One client connection: frames requests, runs the handler inline, keeps deadlines."""

    def __init__(self, server: 'ChannelServer') -> None:
        self.server = server
        # None until connection_made, which runs before any other callback
        self.transport = cast(asyncio.Transport, None)
        self.buf = b''
        self.state = _IDLE
        self.deadline = 0.0      # monotonic time the current state expires
        self.scanned = 0         # header bytes already searched for the blank line
        # (path, content_type, length, close) while in _BODY
        self.request: Union[_Head, _Request, None] = None
        self.peer = '?'
        self.paused = False

    # ------------------------------------------------------------ asyncio callbacks
    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        self.transport = cast(asyncio.Transport, transport)
        try:
            transport.get_extra_info('socket').setsockopt(
                socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        except (OSError, AttributeError):
            pass
        peer = transport.get_extra_info('peername')
        if peer:
            self.peer = '%s:%s' % peer[:2]
        self.server.opened(self)

    def connection_lost(self, exc: Optional[Exception]) -> None:
        self.state = _CLOSED
        self.server.closed(self)

    def eof_received(self) -> bool:
        # a half-closed client: what is complete was answered; the rest never completes
        if self.buf.strip():
            self.server.note_reject(self, 'incomplete request at end of stream')
        self.close()
        return False

    def pause_writing(self) -> None:
        # the client does not read its answers: stop reading its requests
        self.paused = True
        self.transport.pause_reading()
        self.deadline = time.monotonic() + self.server.idle_timeout

    def resume_writing(self) -> None:
        self.paused = False
        if self.state != _CLOSED:
            self.transport.resume_reading()

    def data_received(self, data: bytes) -> None:
        if self.state == _CLOSED:
            return
        if self.state == _IDLE:
            self.server.busy(self)
            self.state = _HEADER
            self.deadline = time.monotonic() + self.server.header_timeout
        buf = self.buf + data if self.buf else data
        out: List[bytes] = []
        pos = 0
        server = self.server
        try:
            while True:
                if self.state == _BODY:
                    path, ctype, length, close = cast(_Request, self.request)
                    if len(buf) - pos < length:
                        break
                    body = buf[pos:pos + length]
                    pos += length
                    out.append(server.dispatch(path, ctype, body, close))
                    if close:
                        raise _Closing()
                    self.state = _HEADER
                    self.scanned = 0
                    self.deadline = time.monotonic() + server.header_timeout
                    continue
                # _HEADER
                end = buf.find(b'\r\n\r\n', pos + max(0, self.scanned - 3))
                if end < 0:
                    if len(buf) - pos > server.max_header:
                        raise _Rejected(431, 'request header block over %d bytes'
                                        % server.max_header)
                    self.scanned = len(buf) - pos
                    break
                if end - pos > server.max_header:
                    raise _Rejected(431, 'request header block over %d bytes'
                                    % server.max_header)
                head = buf[pos:end]
                pos = end + 4
                self.scanned = 0
                self.request = self._parse_head(head)
                self.state = _BODY
                self.deadline = time.monotonic() + server.body_timeout
                if self.request[4]:     # Expect: 100-continue and the body still missing
                    if len(buf) - pos < self.request[2]:
                        out.append(_CONTINUE)
                self.request = self.request[:4]
        except _Rejected as exc:
            out.append(_answer(exc.status, exc.reason, True))
            server.note_reject(self, 'HTTP %d: %s' % (exc.status, exc.reason))
            self._write_and_close(out)
            return
        except _Closing:
            self._write_and_close(out)
            return
        self.buf = buf[pos:] if pos < len(buf) else b''
        if out:
            self.transport.write(b''.join(out) if len(out) > 1 else out[0])
        if self.state == _HEADER and not self.buf:
            self.state = _IDLE
            self.deadline = time.monotonic() + server.idle_timeout
            server.idle(self)

    # ------------------------------------------------------------ parsing
    def _parse_head(self, head: bytes) -> _Head:
        """(path, content_type, length, close, expect_continue) of one header block."""
        lines = head.split(b'\r\n')
        m = _REQUEST_LINE.fullmatch(lines[0])
        if m is None:
            raise _Rejected(400, 'bad request line (need "METHOD /path HTTP/1.1")')
        method, path, minor = m.groups()
        length = None
        ctype = ''
        close = minor == b'0'
        expect = False
        chunked = False
        for line in lines[1:]:
            name, sep, value = line.partition(b':')
            if not sep or not _TOKEN.fullmatch(name):
                raise _Rejected(400, 'bad header line')
            value = value.strip(b' \t')
            if _BAD_VALUE.search(value):
                raise _Rejected(400, 'bad header value')
            name = name.lower()
            if name == b'content-length':
                if not _DIGITS.fullmatch(value) or (length is not None and
                                                    int(value) != length):
                    raise _Rejected(400, 'bad Content-Length')
                length = int(value)
            elif name == b'content-type':
                ctype = value.decode('latin-1')
            elif name == b'connection':
                tokens = value.lower()
                if b'close' in tokens:
                    close = True
                elif b'keep-alive' in tokens:
                    close = False
            elif name == b'transfer-encoding':
                chunked = True
            elif name == b'expect' and value.lower() == b'100-continue':
                expect = True
        if method != b'POST':
            raise _Rejected(405, 'only POST is accepted')
        if chunked:
            raise _Rejected(501, 'Transfer-Encoding is not implemented; send Content-Length')
        if length is None:
            raise _Rejected(411, 'Content-Length required')
        if length >= self.server.max_body:     # as waitress did: the limit is exclusive
            raise _Rejected(413, 'body of %d bytes or more' % self.server.max_body)
        return path.decode('latin-1'), ctype, length, close, expect

    # ------------------------------------------------------------ closing
    def _write_and_close(self, out: List[bytes]) -> None:
        self.state = _CLOSED
        self.buf = b''
        if out:
            self.transport.write(b''.join(out))
        self.transport.close()      # after the buffered answer is sent

    def close(self) -> None:
        """Close now (answers already written are still flushed)."""
        if self.state != _CLOSED:
            self.state = _CLOSED
            self.buf = b''
            self.transport.close()

    def expire(self, now: float) -> None:
        """Close the connection if its deadline has passed (408 for an unfinished header)."""
        if self.state == _CLOSED or now < self.deadline:
            return
        if self.paused:
            self.transport.abort()
            return
        if self.state == _HEADER:
            self.server.note_reject(self, 'HTTP 408: request header not complete within '
                                    '%g s' % self.server.header_timeout)
            self._write_and_close([_answer(408, 'request header not complete in time',
                                           True)])
        elif self.state == _BODY:
            self.server.note_reject(self, 'body not complete within %g s, connection '
                                    'closed' % self.server.body_timeout)
            self.close()
        else:
            self.close()


class _Closing(Exception):
    """The request asked for Connection: close: answer, then close."""


class ChannelServer:
    """
    HTTP server accepting AimRT channel POSTs.

    `handle(topic, msg_type, content_type, body) -> (status, reason)` is called for each
    complete, well-formed POST, inline in the server's event-loop thread (keep it short;
    it must not block). Answers: what `handle` returns; 405 for another method; 404 for
    a path that is not /channel/{TOPIC}/{MSG_TYPE}; 411 without Content-Length; 413 for a
    body of `max_body_bytes` or more; 431 for a header block over `max_header_bytes`;
    408 for a
    header not complete `header_timeout_sec` after its first byte; 400 for a malformed
    request; 501 for a Transfer-Encoding. A body not complete `body_timeout_sec` after its
    header, and a connection idle for `idle_timeout_sec`, are closed. At
    `connection_limit` open connections a new one closes the oldest idle connection (else
    the oldest). `on_log(level, text)` receives the server's own lines (rejects, the
    connection cap); the caller rate-limits them. `threads` and `request_timeout_sec` are
    the waitress-era arguments: `threads` is unused (requests run in the loop thread),
    `request_timeout_sec` is the default of both deadlines.
    """

    def __init__(self, host: str, port: int,
                 handle: Callable[[str, str, str, bytes], Tuple[int, str]],
                 max_body_bytes: int = 16 * 1024 * 1024, threads: Optional[int] = None,
                 connection_limit: int = 1024, idle_timeout_sec: float = 10,
                 request_timeout_sec: float = 10.0, max_header_bytes: int = 64 * 1024,
                 on_log: Optional[Callable[[int, str], Any]] = None,
                 header_timeout_sec: Optional[float] = None,
                 body_timeout_sec: Optional[float] = None) -> None:
        self._handle = handle
        self._on_log = on_log
        self.max_body = int(max_body_bytes)
        self.max_header = int(max_header_bytes)
        self.connection_limit = max(1, int(connection_limit))
        self.idle_timeout = float(idle_timeout_sec)
        self.header_timeout = float(header_timeout_sec if header_timeout_sec is not None
                                    else request_timeout_sec)
        self.body_timeout = float(body_timeout_sec if body_timeout_sec is not None
                                  else request_timeout_sec)
        self._sweep_period = min(0.25, max(0.01, min(
            self.idle_timeout, self.header_timeout, self.body_timeout) / 8))
        # request path -> (topic, msg_type) or False (not a channel)
        self._paths: Dict[str, Union[Tuple[str, str], Literal[False]]] = {}
        # every open one, oldest first
        self._connections: Dict[_Connection, None] = {}
        # idle ones, longest idle first
        self._idle: collections.OrderedDict[_Connection, None] = \
            collections.OrderedDict()
        self.rejected = 0
        self.evicted = 0
        _raise_fd_limit(self.connection_limit + 256)
        self._loop: asyncio.AbstractEventLoop = \
            uvloop.new_event_loop() if uvloop else asyncio.new_event_loop()
        sock = socket.create_server((host, port), backlog=1024)
        self.port = sock.getsockname()[1]
        self._server = self._loop.run_until_complete(self._loop.create_server(
            lambda: _Connection(self), sock=sock))
        self._thread = threading.Thread(target=self._run, name='aimrt_http_channel',
                                        daemon=True)

    # ------------------------------------------------------------ called by connections
    def opened(self, conn: _Connection) -> None:
        self._connections[conn] = None
        self._idle[conn] = None
        conn.deadline = time.monotonic() + self.idle_timeout
        if len(self._connections) > self.connection_limit:
            victim = next((c for c in self._idle if c is not conn), None)
            if victim is None:
                victim = next(c for c in self._connections if c is not conn)
            self.evicted += 1
            self._log(logging.INFO, 'connection cap %d reached: closed the oldest %s '
                      'connection' % (self.connection_limit,
                                      'idle' if victim.state == _IDLE else 'busy'))
            victim.close()

    def closed(self, conn: _Connection) -> None:
        self._connections.pop(conn, None)
        self._idle.pop(conn, None)

    def idle(self, conn: _Connection) -> None:
        self._idle[conn] = None

    def busy(self, conn: _Connection) -> None:
        self._idle.pop(conn, None)

    def note_reject(self, conn: _Connection, text: str) -> None:
        self.rejected += 1
        self._log(logging.WARNING, 'rejected request: %s from %s' % (text, conn.peer))

    def _log(self, level: int, text: str) -> None:
        if self._on_log is not None:
            try:
                self._on_log(level, text)
            except Exception:  # noqa: B902 - a broken log callback must not stop serving
                pass

    def dispatch(self, path: str, content_type: str, body: bytes, close: bool) -> bytes:
        """Answer one complete POST (bytes to write)."""
        parsed = self._paths.get(path)
        if parsed is None:
            parsed = parse_channel_path(path)
            if len(self._paths) >= _PATH_CACHE_SIZE:
                self._paths.clear()
            self._paths[path] = parsed if parsed is not None else False
        if not parsed:
            status, reason = 404, 'not an AimRT channel path'
        else:
            try:
                status, reason = self._handle(parsed[0], parsed[1], content_type, body)
            except Exception as exc:  # noqa: B902 - a handler bug must still answer
                self._log(logging.ERROR, 'handler failed: %r' % (exc,))
                status, reason = 500, 'internal error'
        if status == 200 and not close:
            return _OK
        return _answer(status, '' if status == 200 else reason, close)

    # ------------------------------------------------------------ loop
    def _sweep(self) -> None:
        now = time.monotonic()
        for conn in list(self._connections):
            if now >= conn.deadline:
                conn.expire(now)
        self._timer = self._loop.call_later(self._sweep_period, self._sweep)

    def _run(self) -> None:
        asyncio.set_event_loop(self._loop)
        self._timer = self._loop.call_later(self._sweep_period, self._sweep)
        self._loop.run_forever()

    def start(self) -> None:
        """Serve from a background thread."""
        self._thread.start()

    def stop(self) -> None:
        """Close every connection and the listening socket, then stop the loop thread."""
        def close_all() -> None:
            self._server.close()
            for conn in list(self._connections):
                conn.transport.abort()
            self._loop.stop()

        if self._thread.is_alive():
            self._loop.call_soon_threadsafe(close_all)
            self._thread.join(timeout=5.0)
        else:
            close_all()
        if not self._thread.is_alive() and not self._loop.is_closed():
            try:
                self._loop.run_until_complete(self._server.wait_closed())
            except (RuntimeError, asyncio.TimeoutError):
                pass
            self._loop.close()


def _raise_fd_limit(wanted: int) -> None:
    """Raise the soft RLIMIT_NOFILE towards `wanted` (never above the hard limit)."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if soft != resource.RLIM_INFINITY and soft < wanted:
        new = wanted if hard == resource.RLIM_INFINITY else min(wanted, hard)
        try:
            resource.setrlimit(resource.RLIMIT_NOFILE, (new, hard))
        except (ValueError, OSError):
            pass
