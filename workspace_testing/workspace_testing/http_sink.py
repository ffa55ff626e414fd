# SPDX-License-Identifier: Apache-2.0
"""
An HTTP server that records every POST: a stand-in AimRT http subscriber.

It answers 200, or a status of the test's choice.

It is the plain standard-library server (http.server, a thread per connection), not the
workspace's own ChannelServer, so a test of a publisher checks it against an independent
peer.
"""

import http.server
import queue
import threading
from typing import Any, List, NamedTuple, Optional


class Post(NamedTuple):
    """One POST received: request path, Content-Type header (None without one), body."""

    path: str
    content_type: Optional[str]
    body: bytes


class HttpSink:
    """Serves 127.0.0.1 on a free port (`port`); each POST goes to the `requests` queue."""

    def __init__(self, status: int = 200) -> None:
        """Serve at once; answer every POST with ``status``."""
        self.requests: 'queue.Queue[Post]' = queue.Queue()
        requests = self.requests

        class Handler(http.server.BaseHTTPRequestHandler):
            protocol_version = 'HTTP/1.1'

            def do_POST(self) -> None:  # noqa: N802 - the name http.server calls
                body = self.rfile.read(int(self.headers['Content-Length']))
                requests.put(Post(self.path, self.headers.get('Content-Type'), body))
                self.send_response(status)
                self.send_header('Content-Length', '0')
                self.end_headers()

            def log_message(self, format: str, *args: Any) -> None:  # noqa: A002
                pass

        self.server = http.server.ThreadingHTTPServer(('127.0.0.1', 0), Handler)
        self.server.daemon_threads = True
        self.port: int = self.server.server_address[1]
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)
        self.thread.start()

    def drain(self) -> List[Post]:
        """Return the POSTs received and not taken yet, oldest first."""
        out: List[Post] = []
        while True:
            try:
                out.append(self.requests.get_nowait())
            except queue.Empty:
                return out

    def close(self) -> None:
        """Stop serving and close the listening socket."""
        self.server.shutdown()
        self.server.server_close()
        self.thread.join(timeout=5.0)

    def __enter__(self) -> 'HttpSink':
        """Return the running sink."""
        return self

    def __exit__(self, *exc: object) -> None:
        """Close the sink."""
        self.close()
