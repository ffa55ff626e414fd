# SPDX-License-Identifier: Apache-2.0
"""
The daemon: one long-running hidden node that keeps the DDS graph discovered, and its client.

As ros2cli's daemon, it answers the graph verbs from rclpy's own graph cache (the node's
rmw discovery data, read at the moment of each question), so an answer is never older than
DDS discovery itself. It listens on a Unix socket whose name is keyed by everything that
decides which graph a node sees (ROS_DOMAIN_ID, the discovery range and static peers, the
rmw) and by the interpreter and this package's location, so a daemon never answers for
another domain, distro or workspace. Requests are JSON lines: {"m": method, "a": [args]};
replies {"r": result} or {"e": [error type, text]}.

The client half imports nothing of rclpy: a command answered by the daemon does not pay for
a node of its own nor for discovery.
"""

import hashlib
import json
import os
import socket
import sys
import time

from node_runtime.stop import launcher_source

# Where the sockets live: one fixed directory (not TMPDIR, which differs between callers).
SOCKET_DIR = f'/tmp/ros2cli_py_daemon-{os.getuid()}'
IDLE_TIMEOUT_S = 2 * 60 * 60        # ros2cli's daemon default: two hours without a request
START_WAIT_S = 10.0                 # how long `daemon start` waits for the socket to answer
REPLY_TIMEOUT_S = 30.0              # a reply includes at most one discovery settle (<= 5 s)
LOG_ENV = 'ROS2CLI_PY_DAEMON_LOG'   # a file for the daemon's output (default: none)
POLL_S = 0.25                       # the daemon's graph-change watch period

_GRAPH_ENV = ('ROS_DOMAIN_ID', 'ROS_AUTOMATIC_DISCOVERY_RANGE', 'ROS_STATIC_PEERS',
              'ROS_LOCALHOST_ONLY', 'RMW_IMPLEMENTATION', 'ROS_DISCOVERY_SERVER',
              'FASTRTPS_DEFAULT_PROFILES_FILE', 'FASTDDS_DEFAULT_PROFILES_FILE',
              'CYCLONEDDS_URI', 'ROS_SECURITY_ENABLE', 'ROS_SECURITY_KEYSTORE')


class DaemonError(Exception):
    """The daemon could not be reached or did not answer."""


class DaemonCallError(Exception):
    """A graph query that failed in the daemon (e.g. a node left the graph meanwhile)."""


def domain_id():
    """Return the ROS domain of this process's environment (ros2cli's default 0)."""
    return os.environ.get('ROS_DOMAIN_ID', '').strip() or '0'


def socket_path():
    """Return the socket of the daemon for this environment's graph, interpreter, install."""
    key = [f'{name}={os.environ.get(name, "")}' for name in _GRAPH_ENV]
    key += [sys.executable, os.path.dirname(os.path.abspath(__file__))]
    digest = hashlib.sha256('\n'.join(key).encode()).hexdigest()[:16]
    return os.path.join(SOCKET_DIR, f'domain{domain_id()}-{digest}.sock')


class Client:
    """One connection to the daemon: call(method, *args) returns its answer."""

    def __init__(self, sock):
        self._sock = sock
        self._file = sock.makefile('rwb')

    def call(self, method, *args):
        """Ask the daemon; DaemonCallError for a failed query, DaemonError if it is gone."""
        try:
            self._file.write(json.dumps({'m': method, 'a': list(args)}).encode() + b'\n')
            self._file.flush()
            line = self._file.readline()
        except OSError as e:
            raise DaemonError(f'the daemon did not answer: {e}') from None
        if not line:
            raise DaemonError('the daemon closed the connection')
        reply = json.loads(line)
        if 'e' in reply:
            raise DaemonCallError(*reply['e'])
        return reply['r']

    def close(self):
        """Close the connection (idempotent)."""
        for closer in (self._file.close, self._sock.close):
            try:
                closer()
            except OSError:
                pass


def connect(path=None):
    """Return a Client of the running daemon, or None when none is running."""
    sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    sock.settimeout(REPLY_TIMEOUT_S)
    try:
        sock.connect(path or socket_path())
    except OSError:
        sock.close()
        return None
    return Client(sock)


def is_running():
    """Return whether a daemon answers for this environment."""
    client = connect()
    if client is None:
        return False
    try:
        client.call('ping')
        return True
    except (DaemonError, DaemonCallError, ValueError):
        return False
    finally:
        client.close()


# The daemon process: a launcher (node_runtime.stop) as `python3 -S -c`, so a SIGINT/SIGTERM
# at any moment of its start ends it with status 0.
_LAUNCH = launcher_source('ros2cli_py.daemon:serve', argv=True, stop=True)


def spawn(idle_timeout=IDLE_TIMEOUT_S):
    """Start a daemon in the background, detached from this process (returns at once)."""
    import subprocess
    log = os.environ.get(LOG_ENV)
    # never the caller's pipes: a reader waiting for their end would wait for the daemon
    errors = open(log, 'ab') if log else subprocess.DEVNULL
    try:
        subprocess.Popen(
            [sys.executable, '-S', '-c', _LAUNCH, '--idle-timeout', str(idle_timeout)],
            stdin=subprocess.DEVNULL, stdout=errors, stderr=errors,
            # cwd '/': `-c` puts the working directory first on sys.path, and a source tree
            # there would be imported instead of the installed package (another socket key)
            start_new_session=True, close_fds=True, cwd='/')
    finally:
        if log:
            errors.close()


def start(wait=START_WAIT_S):
    """Start a daemon and wait until it answers; returns whether one answers."""
    spawn()
    deadline = time.monotonic() + wait
    while time.monotonic() < deadline:
        if is_running():
            return True
        time.sleep(0.05)
    return is_running()


def stop(wait=START_WAIT_S):
    """Ask the running daemon to exit; returns False if none was running."""
    client = connect()
    if client is None:
        return False
    try:
        client.call('shutdown')
    except (DaemonError, DaemonCallError, ValueError):
        pass
    finally:
        client.close()
    deadline = time.monotonic() + wait
    while time.monotonic() < deadline and os.path.exists(socket_path()):
        time.sleep(0.05)
    return True


def stop_other_daemons(own_path):
    """
    Ask every other daemon of this domain on this host to exit (at most one per domain).

    A daemon started from another environment (interpreter, install, discovery range) never
    answers this one's commands, yet its node stays in the domain's graph: its
    /parameter_events and /rosout publishers and its node would be counted by every
    command (ros2cli has one daemon per domain, on a port derived from the domain).
    """
    import glob
    for path in glob.glob(os.path.join(SOCKET_DIR, f'domain{domain_id()}-*.sock')):
        if path == own_path:
            continue
        client = connect(path)
        if client is None:
            continue
        try:
            client.call('shutdown')
        except (DaemonError, DaemonCallError, ValueError):
            pass
        finally:
            client.close()


# -- the daemon process -------------------------------------------------------------------------

class _Graph:
    """The daemon's node, its graph-change watch and the answers to the requests."""

    def __init__(self):
        import threading

        from ros2cli_py.graph import CliNode
        from ros2cli_py.graph import OWN_NODE_PREFIX
        self.lock = threading.Lock()
        self.cli = CliNode(name=f'{OWN_NODE_PREFIX}daemon_{domain_id()}_{os.getpid()}')
        self.started = time.monotonic()
        self.changed = self.started
        self.last_request = self.started
        self._snap = None

    def watch(self):
        """Note when the graph last changed (call every POLL_S)."""
        with self.lock:
            snap = self.cli._snapshot()
        if snap != self._snap:
            self._snap, self.changed = snap, time.monotonic()

    def settle(self):
        """
        Wait, as a command's own discovery does, only while the graph is still changing.

        A daemon younger than MIN_DISCOVERY_S or a graph changed in the last SETTLE_S may
        be mid-discovery (a node's endpoints arrive one by one): the answer waits until the
        graph stood still for SETTLE_S (at most MAX_DISCOVERY_S). A steady graph answers at
        once.
        """
        from ros2cli_py.graph import MAX_DISCOVERY_S
        from ros2cli_py.graph import MIN_DISCOVERY_S
        from ros2cli_py.graph import SETTLE_S
        begin = time.monotonic()
        while time.monotonic() - begin < MAX_DISCOVERY_S:
            self.watch()
            now = time.monotonic()
            if now - self.started >= MIN_DISCOVERY_S and now - self.changed >= SETTLE_S:
                return
            time.sleep(0.05)

    def answer(self, method, args):
        """Return the JSON-ready result of one request."""
        from ros2cli_py.graph import GRAPH_METHODS
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


def _serve_connection(conn, graph, stop_event):
    from node_runtime import stop as stop_request
    file = conn.makefile('rwb')
    try:
        for line in file:
            try:
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


def serve(argv=None, stop=None):
    """Run the daemon until SIGINT/SIGTERM, `ros2 daemon stop` or the idle timeout."""
    import argparse

    from node_runtime import stop as stop_request
    parser = argparse.ArgumentParser(prog='ros2cli_py daemon')
    parser.add_argument('--idle-timeout', type=float, default=IDLE_TIMEOUT_S,
                        help='Exit after this many seconds without a request')
    args = parser.parse_args(argv)
    stop = stop_request.watch(stop)
    # The runner's exit-code rule: a failure is one line in the daemon's log (status 1).
    from node_runtime import runner
    return runner.run_program(lambda: _serve(args, stop), prog='ros2cli_py daemon',
                              signals='keep')


def _serve(args, stop):
    import fcntl
    import threading

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
