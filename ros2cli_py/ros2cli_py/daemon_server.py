# SPDX-License-Identifier: Apache-2.0
"""
The daemon process: a hidden node that keeps the graph discovered and answers its clients.

Started by `ros2cli_py.daemon.spawn` (the client side, which holds the socket's name and the
wire format). Each connection is served on a thread; a graph query is answered from the
node's graph cache under one lock.
"""

import argparse
import json
import os
import socket
import threading
import time
from typing import Any, Dict, List, Optional, Sequence

from ros2cli_py.daemon import domain_id
from ros2cli_py.daemon import IDLE_TIMEOUT_S
from ros2cli_py.daemon import POLL_S
from ros2cli_py.daemon import REPLY_TIMEOUT_S
from ros2cli_py.daemon import SOCKET_DIR
from ros2cli_py.daemon import socket_path
from ros2cli_py.daemon import stop_other_daemons
from ros2cli_py.graph import CliNode
from ros2cli_py.graph import GRAPH_METHODS
from ros2cli_py.graph import GraphSnapshot
from ros2cli_py.graph import MAX_DISCOVERY_S
from ros2cli_py.graph import MIN_DISCOVERY_S
from ros2cli_py.graph import OWN_NODE_PREFIX
from ros2cli_py.graph import SETTLE_S


class _Graph:
    """The daemon's node, its graph-change watch and the answers to the requests."""

    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.cli = CliNode(name=f'{OWN_NODE_PREFIX}daemon_{domain_id()}_{os.getpid()}')
        self.started = time.monotonic()
        self.changed = self.started
        self.last_request = self.started
        self._snap: Optional[GraphSnapshot] = None

    def watch(self) -> None:
        """Note when the graph last changed (call every POLL_S)."""
        with self.lock:
            snap = self.cli.snapshot()
        if snap != self._snap:
            self._snap, self.changed = snap, time.monotonic()

    def settle(self) -> None:
        """
        Wait, as a command's own discovery does, only while the graph is still changing.

        A daemon younger than MIN_DISCOVERY_S or a graph changed in the last SETTLE_S may
        be mid-discovery (a node's endpoints arrive one by one): the answer waits until the
        graph stood still for SETTLE_S (at most MAX_DISCOVERY_S). A steady graph answers at
        once.
        """
        begin = time.monotonic()
        while time.monotonic() - begin < MAX_DISCOVERY_S:
            self.watch()
            now = time.monotonic()
            if now - self.started >= MIN_DISCOVERY_S and now - self.changed >= SETTLE_S:
                return
            time.sleep(0.05)

    def answer(self, method: str, args: List[Any]) -> Any:
        """Return the JSON-ready result of one request."""
        self.last_request = time.monotonic()
        if method == 'ping':
            return {'pid': os.getpid(), 'node': self.cli.node.get_fully_qualified_name()}
        if method == 'discover':
            self.settle()
            return True
        with self.lock:
            if method in GRAPH_METHODS:
                result = getattr(self.cli.node, method)(*args)
                if method.endswith('_info_by_topic'):
                    return [str(info) for info in result]
                return result
            if method == 'action_names_and_types':
                return self.cli.action_names_and_types()
            if method == 'action_endpoints_by_node':
                return self.cli.action_endpoints_by_node(*args)
        raise ValueError(f'unknown request {method!r}')


def _serve_connection(conn: socket.socket, graph: _Graph, stop_event: threading.Event) -> None:
    from node_runtime import stop as stop_request
    file = conn.makefile('rwb')
    try:
        for line in file:
            try:
                reply: Dict[str, Any]
                request = json.loads(line)
                method = request['m']
                if method == 'shutdown':
                    reply = {'r': True}
                    stop_request.request()
                else:
                    reply = {'r': graph.answer(method, request.get('a', []))}
            except Exception as e:      # noqa: B902 - the client gets the error, not a crash
                lines = str(e).strip().splitlines()
                reply = {'e': [type(e).__name__, lines[0] if lines else repr(e)]}
            file.write(json.dumps(reply).encode() + b'\n')
            file.flush()
            if stop_event.is_set():
                return
    except OSError:
        pass
    finally:
        file.close()
        conn.close()


def serve(argv: Optional[Sequence[str]] = None,
          stop: Optional[threading.Event] = None) -> int:
    """Run the daemon until SIGINT/SIGTERM, `ros2 daemon stop` or the idle timeout."""
    from node_runtime import stop as stop_request
    parser = argparse.ArgumentParser(prog='ros2cli_py daemon')
    parser.add_argument('--idle-timeout', type=float, default=IDLE_TIMEOUT_S,
                        help='Exit after this many seconds without a request')
    args = parser.parse_args(argv)
    stop_event = stop_request.watch(stop)
    # The runner's exit-code rule: a failure is one line in the daemon's log (status 1).
    from node_runtime import runner
    return runner.run_program(lambda: _serve(args, stop_event), prog='ros2cli_py daemon',
                              signals='keep')


def _serve(args: argparse.Namespace, stop: threading.Event) -> int:
    import fcntl

    path = socket_path()
    os.makedirs(SOCKET_DIR, mode=0o700, exist_ok=True)
    # One daemon per socket: the lock decides a race of two starts; the loser leaves quietly.
    lock = open(path + '.lock', 'w')
    try:
        fcntl.flock(lock, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        return 0
    stop_other_daemons(path)
    graph = _Graph()
    server = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    try:
        if os.path.exists(path):
            os.unlink(path)     # a socket left by a daemon that was killed
        server.bind(path)
        server.listen(16)
        server.settimeout(POLL_S)
        while not stop.is_set():
            try:
                conn, _ = server.accept()
            except socket.timeout:
                graph.watch()
                if time.monotonic() - graph.last_request > args.idle_timeout:
                    break
                continue
            conn.settimeout(REPLY_TIMEOUT_S)
            threading.Thread(target=_serve_connection, args=(conn, graph, stop),
                             daemon=True).start()
    finally:
        server.close()
        try:
            os.unlink(path)
        except OSError:
            pass
        graph.cli.close()
        lock.close()
    return 0
