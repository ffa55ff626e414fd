# SPDX-License-Identifier: Apache-2.0
"""
The subscriber end of AimRT's `http` channel: an HTTP/1.1 server for channel POSTs.

The server is one uvloop (libuv) event loop in its own thread that owns every
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
import logging
import resource
import socket
import threading
import time
from types import ModuleType
from typing import Any, Callable, cast, Dict, List, Literal, Optional, Tuple, Union

from aimrt_protocols_py.http_common import parse_channel_path, PATH_CACHE_SIZE
from aimrt_protocols_py.http_request import answer, CONTINUE, OK, parse_head, Rejected, Request

try:
    import uvloop
except ImportError:     # pragma: no cover - pinned in requirements; asyncio works too
    uvloop = cast(ModuleType, None)

# connection states
_IDLE, _HEADER, _BODY, _CLOSED = range(4)


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
        # the request whose body is awaited while in _BODY
        self.request: Optional[Request] = None
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
                    request = cast(Request, self.request)
                    length = request.length
                    if len(buf) - pos < length:
                        break
                    body = buf[pos:pos + length]
                    pos += length
                    out.append(server.dispatch(request.path, request.content_type, body,
                                               request.close))
                    if request.close:
                        raise _Closing()
                    self.state = _HEADER
                    self.scanned = 0
                    self.deadline = time.monotonic() + server.header_timeout
                    continue
                # _HEADER
                end = buf.find(b'\r\n\r\n', pos + max(0, self.scanned - 3))
                if end < 0:
                    if len(buf) - pos > server.max_header:
                        raise Rejected(431, 'request header block over %d bytes'
                                       % server.max_header)
                    self.scanned = len(buf) - pos
                    break
                if end - pos > server.max_header:
                    raise Rejected(431, 'request header block over %d bytes'
                                   % server.max_header)
                head = buf[pos:end]
                pos = end + 4
                self.scanned = 0
                request = self.request = parse_head(head, server.max_body)
                self.state = _BODY
                self.deadline = time.monotonic() + server.body_timeout
                # Expect: 100-continue and the body still missing
                if request.expect_continue and len(buf) - pos < request.length:
                    out.append(CONTINUE)
        except Rejected as exc:
            out.append(answer(exc.status, exc.reason, True))
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
            self._write_and_close([answer(408, 'request header not complete in time',
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
            if len(self._paths) >= PATH_CACHE_SIZE:
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
            return OK
        return answer(status, '' if status == 200 else reason, close)

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
