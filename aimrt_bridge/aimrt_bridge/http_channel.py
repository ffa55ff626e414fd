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

The server side is waitress (a maintained pure-Python WSGI server): one event loop
thread owns every connection and a fixed pool of worker threads runs complete
requests, so idle or slow clients cost no thread. Limits: a bounded number of open
connections, an idle timeout, a whole-request timeout (headers and body must arrive
within it; a body shorter than its Content-Length is dropped when it expires), bounded
header and body sizes; malformed requests get 4xx from waitress (400) or from us (405,
411, 404); client resets are closed quietly.
"""
from http import HTTPStatus
import http.client
import logging
import socket
import struct
import threading
import time
from urllib.parse import quote_plus, unquote_plus

from waitress.channel import HTTPChannel
from waitress.parser import HTTPRequestParser, ParsingError
from waitress.server import TcpWSGIServer

CHANNEL_PREFIX = '/channel/'


def channel_path(topic, msg_type):
    """Path of an AimRT channel POST: /channel/{TOPIC}/{MSG_TYPE}, URL-encoded as AimRT does."""
    return CHANNEL_PREFIX + quote_plus(topic, safe='') + '/' + quote_plus(msg_type, safe='')


def parse_channel_path(path):
    """(topic, msg_type) of a /channel/{TOPIC}/{MSG_TYPE} path, or None."""
    path = path.split('?', 1)[0]
    if not path.startswith(CHANNEL_PREFIX):
        return None
    parts = path[len(CHANNEL_PREFIX):].split('/')
    if len(parts) != 2 or not parts[0] or not parts[1]:
        return None
    return unquote_plus(parts[0]), unquote_plus(parts[1])


def parse_address(address):
    """'ip:port' or 'http://ip:port' -> (host, port); ValueError when malformed."""
    text = address.strip()
    if text.startswith('http://'):
        text = text[len('http://'):]
    text = text.rstrip('/')
    host, sep, port = text.rpartition(':')
    if not sep or not host or not port.isdigit() or not 0 < int(port) < 65536:
        raise ValueError(f'address {address!r} is not ip:port')
    return host.strip('[]'), int(port)


class ChannelPublisher:
    """POSTs channel messages to one AimRT http subscriber over a kept-alive connection."""

    def __init__(self, address, timeout_sec):
        self.host, self.port = parse_address(address)
        self.address = f'{self.host}:{self.port}'
        self._timeout = timeout_sec
        self._conn = None
        self._lock = threading.Lock()

    def post(self, topic, msg_type, body, content_type):
        """Send one message; return the HTTP status. Raises OSError/HTTPException on failure."""
        path = channel_path(topic, msg_type)
        headers = {'Content-Type': content_type, 'User-Agent': 'aimrt_bridge'}
        with self._lock:
            # A kept-alive socket may have been closed by the peer since the last message:
            # one retry on a fresh connection then. A fresh connection that failed is not
            # retried (the peer is down; each connect to it costs a timeout or a port).
            for attempt in (0, 1):
                kept_alive = self._conn is not None
                try:
                    if not kept_alive:
                        self._conn = self._connect()
                    self._conn.request('POST', path, body=body, headers=headers)
                    rsp = self._conn.getresponse()
                    rsp.read()
                    if rsp.will_close:
                        self.close_locked()
                    return rsp.status
                except (OSError, http.client.HTTPException):
                    self.close_locked()
                    if attempt or not kept_alive:
                        raise
        raise AssertionError('unreachable')

    def _connect(self):
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

    def close_locked(self):
        """Close the connection; the caller holds the lock."""
        if self._conn is not None:
            self._conn.close()
            self._conn = None

    def close(self):
        """Close the kept-alive connection (the next post opens a new one)."""
        with self._lock:
            self.close_locked()


#: Longest reason text sent back in an error answer.
MAX_REASON_CHARS = 200

_WAITRESS_LOG = logging.getLogger('waitress')


class _LogRelay(logging.Handler):
    """Hands waitress' log records to the registered servers' callbacks (never stderr)."""

    def __init__(self):
        super().__init__(logging.INFO)
        self.callbacks = set()
        self._lock2 = threading.Lock()

    def emit(self, record):
        try:
            text = record.getMessage()
        except Exception:  # noqa: B902 - a broken record must not break the server
            text = str(record.msg)
        with self._lock2:
            callbacks = list(self.callbacks)
        for callback in callbacks:
            callback(record.levelno, text)


_RELAY = _LogRelay()
_WAITRESS_LOG.addHandler(_RELAY)
_WAITRESS_LOG.propagate = False
_WAITRESS_LOG.setLevel(logging.INFO)


class _Parser(HTTPRequestParser):
    """waitress' request parser, refusing request lines without HTTP/1.0 or HTTP/1.1."""

    def parse_header(self, header_plus):
        """Parse the header block; a missing or unknown HTTP version is a bad request line."""
        super().parse_header(header_plus)
        if self.version not in ('1.0', '1.1'):
            # waitress would serve these as HTTP/1.0; AimRT speaks HTTP/1.1
            raise ParsingError('bad request line: HTTP version %r is not HTTP/1.0 or HTTP/1.1'
                               % self.version[:20])


class _Channel(HTTPChannel):
    """waitress' connection, noting when the request being received started."""

    parser_class = _Parser
    request_started = None

    def received(self, data):
        """Parse data; stamp the start of a new partial request (for the request timeout)."""
        before = self.request
        result = super().received(data)
        if self.request is None:
            self.request_started = None
        elif self.request is not before:
            self.request_started = time.monotonic()
        return result


class _Server(TcpWSGIServer):
    """waitress' TCP server plus a whole-request deadline for slow senders."""

    channel_class = _Channel
    request_timeout = 10.0

    def maintenance(self, now):
        """Close idle connections (waitress) and ones whose request is overdue (ours)."""
        super().maintenance(now)
        cutoff = time.monotonic() - self.request_timeout
        for channel in list(self.active_channels.values()):
            started = getattr(channel, 'request_started', None)
            if started is not None and started < cutoff and not channel.requests:
                channel.will_close = True


class ChannelServer:
    """
    HTTP server accepting AimRT channel POSTs.

    `handle(topic, msg_type, content_type, body) -> (status, reason)` is called for each
    complete, well-formed POST, from one of `threads` worker threads. Answers: what
    `handle` returns; 405 for another method; 404 for a path that is not
    /channel/{TOPIC}/{MSG_TYPE}; 411 without Content-Length; 413 for a body over
    `max_body_bytes`; 400 for a malformed request (waitress). `on_log(level, text)`
    receives the server's own log lines (e.g. the connection limit reached).
    """

    def __init__(self, host, port, handle, max_body_bytes=16 * 1024 * 1024, threads=4,
                 connection_limit=64, idle_timeout_sec=10, request_timeout_sec=10.0,
                 max_header_bytes=64 * 1024, on_log=None):
        self._handle = handle
        self._max_body = max_body_bytes
        self._on_log = on_log
        self._server = _Server(
            self._app, host=host, port=port, threads=threads,
            connection_limit=connection_limit,
            channel_timeout=max(1, int(round(idle_timeout_sec))), cleanup_interval=1,
            max_request_body_size=max_body_bytes, max_request_header_size=max_header_bytes,
            log_socket_errors=False, expose_tracebacks=False, ident='aimrt_bridge',
            clear_untrusted_proxy_headers=True)
        self._server.request_timeout = float(request_timeout_sec)
        self.port = self._server.socket.getsockname()[1]   # an int (effective_port is text)
        if on_log is not None:
            with _RELAY._lock2:
                _RELAY.callbacks.add(on_log)
        self._thread = threading.Thread(target=self._server.run,
                                        name='aimrt_http_channel', daemon=True)

    def _app(self, environ, start_response):
        status, reason = self._dispatch(environ)
        payload = b'' if status == 200 else \
            reason[:MAX_REASON_CHARS].encode('utf-8', 'replace')
        headers = [('Content-Type', 'text/plain; charset=utf-8'),
                   ('Content-Length', str(len(payload)))]
        if status == 405:
            headers.append(('Allow', 'POST'))
        start_response('%d %s' % (status, HTTPStatus(status).phrase), headers)
        return [payload]

    def _dispatch(self, environ):
        """(status, reason) for one complete request (waitress has read the whole body)."""
        if environ.get('REQUEST_METHOD') != 'POST':
            return 405, 'only POST is accepted'
        length = environ.get('CONTENT_LENGTH')
        if not length:
            return 411, 'Content-Length required'
        length = int(length)    # waitress has checked: digits only, at most max_body
        parsed = parse_channel_path(environ.get('REQUEST_URI', ''))
        if parsed is None:
            return 404, 'not an AimRT channel path'
        body = environ['wsgi.input'].read(length)
        ctype = environ.get('CONTENT_TYPE', '')
        return self._handle(parsed[0], parsed[1], ctype, body)

    def start(self):
        """Serve from a background thread."""
        self._thread.start()

    def stop(self):
        """Close every connection and the listening socket, then stop the workers."""
        server = self._server

        def close_all():
            for channel in list(server.active_channels.values()):
                channel.handle_close()
            server.close()

        if self._thread.is_alive():
            server.trigger.pull_trigger(close_all)
            self._thread.join(timeout=5.0)
        else:
            close_all()
        server.task_dispatcher.shutdown(timeout=5)
        if self._on_log is not None:
            with _RELAY._lock2:
                _RELAY.callbacks.discard(self._on_log)
