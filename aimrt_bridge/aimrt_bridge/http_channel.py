"""AimRT's `http` channel backend (net plugin) as a wire protocol.

A publisher POSTs each message to http://{ip:port}/channel/{TOPIC}/{MSG_TYPE}
with TOPIC and MSG_TYPE URL-encoded the way AimRT's UrlEncode does it (letters,
digits and -_.~ kept, space -> '+', everything else %XX upper case; that is
exactly urllib's quote_plus with safe=''), e.g. pb:aimrt.protocols.sensor.JointState
-> pb%3Aaimrt.protocols.sensor.JointState.  The body is the serialized message;
content-type says application/protobuf or application/json.  The subscriber
answers 200 (AimRT's publisher only logs non-200 answers).
"""
import http.client
import http.server
import threading
from urllib.parse import quote_plus, unquote_plus

CHANNEL_PREFIX = '/channel/'


def channel_path(topic, msg_type):
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
            # one retry on a fresh connection: a kept-alive socket may have been
            # closed by the peer since the last message.
            for attempt in (0, 1):
                if self._conn is None:
                    self._conn = http.client.HTTPConnection(self.host, self.port,
                                                            timeout=self._timeout)
                try:
                    self._conn.request('POST', path, body=body, headers=headers)
                    rsp = self._conn.getresponse()
                    rsp.read()
                    if rsp.will_close:
                        self.close_locked()
                    return rsp.status
                except (OSError, http.client.HTTPException):
                    self.close_locked()
                    if attempt:
                        raise
        raise AssertionError('unreachable')

    def close_locked(self):
        if self._conn is not None:
            self._conn.close()
            self._conn = None

    def close(self):
        with self._lock:
            self.close_locked()


class ChannelServer:
    """HTTP server accepting AimRT channel POSTs; `handle(topic, msg_type,
    content_type, body) -> (status, reason)` is called for each one."""

    def __init__(self, host, port, handle, max_body_bytes=16 * 1024 * 1024):
        outer = self

        class Handler(http.server.BaseHTTPRequestHandler):
            protocol_version = 'HTTP/1.1'  # keep-alive, as AimRT's client uses

            def do_POST(self):
                status, reason, ctype = outer._dispatch(self)
                payload = reason.encode('utf-8') if status != 200 else b''
                self.send_response(status)
                self.send_header('Content-Type', ctype if status == 200 else 'text/plain')
                self.send_header('Content-Length', str(len(payload)))
                self.end_headers()
                self.wfile.write(payload)

            def log_message(self, fmt, *args):  # the node logs what matters
                pass

        self._handle = handle
        self._max_body = max_body_bytes
        self._server = http.server.ThreadingHTTPServer((host, port), Handler)
        self._server.daemon_threads = True
        self.port = self._server.server_address[1]
        self._thread = threading.Thread(target=self._server.serve_forever,
                                        name='aimrt_http_channel', daemon=True)

    def _dispatch(self, req):
        ctype = req.headers.get('Content-Type', '')
        length = req.headers.get('Content-Length')
        if length is None or not length.isdigit():
            req.close_connection = True
            return 411, 'Content-Length required', ctype
        length = int(length)
        if length > self._max_body:
            req.close_connection = True
            return 413, f'body larger than {self._max_body} bytes', ctype
        body = req.rfile.read(length)
        parsed = parse_channel_path(req.path)
        if parsed is None:
            return 404, f'not an AimRT channel path: {req.path}', ctype
        status, reason = self._handle(parsed[0], parsed[1], ctype, body)
        return status, reason, ctype

    def start(self):
        self._thread.start()

    def stop(self):
        self._server.shutdown()
        self._server.server_close()
        self._thread.join(timeout=5.0)
