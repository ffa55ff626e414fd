# SPDX-License-Identifier: Apache-2.0
"""
The daemon's client: find, start, ask and stop the daemon (the server: `daemon_server`).

The daemon is one long-running hidden node that keeps the DDS graph discovered. As ros2cli's
daemon, it answers the graph verbs from rclpy's own graph cache (the node's rmw discovery
data, read at the moment of each question), so an answer is never older than DDS discovery
itself. It listens on a Unix socket whose name is keyed by everything that decides which
graph a node sees (ROS_DOMAIN_ID, the discovery range and static peers, the rmw) and by the
interpreter and this package's location, so a daemon never answers for another domain,
distro or workspace. Requests are JSON lines: {"m": method, "a": [args]}; replies
{"r": result} or {"e": [error type, text]}.

This module imports nothing of rclpy: a command answered by the daemon does not pay for a
node of its own nor for discovery.
"""

import hashlib
import json
import os
import socket
import sys
import time
from typing import Any, Optional

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


def domain_id() -> str:
    """Return the ROS domain of this process's environment (ros2cli's default 0)."""
    return os.environ.get('ROS_DOMAIN_ID', '').strip() or '0'


def socket_path() -> str:
    """Return the socket of the daemon for this environment's graph, interpreter, install."""
    key = [f'{name}={os.environ.get(name, "")}' for name in _GRAPH_ENV]
    key += [sys.executable, os.path.dirname(os.path.abspath(__file__))]
    digest = hashlib.sha256('\n'.join(key).encode()).hexdigest()[:16]
    return os.path.join(SOCKET_DIR, f'domain{domain_id()}-{digest}.sock')


class Client:
    """One connection to the daemon: call(method, *args) returns its answer."""

    def __init__(self, sock: socket.socket) -> None:
        self._sock = sock
        self._file = sock.makefile('rwb')

    def call(self, method: str, *args: Any) -> Any:
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

    def close(self) -> None:
        """Close the connection (idempotent)."""
        for closer in (self._file.close, self._sock.close):
            try:
                closer()
            except OSError:
                pass


def connect(path: Optional[str] = None) -> Optional[Client]:
    """Return a Client of the running daemon, or None when none is running."""
    sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    sock.settimeout(REPLY_TIMEOUT_S)
    try:
        sock.connect(path or socket_path())
    except OSError:
        sock.close()
        return None
    return Client(sock)


def is_running() -> bool:
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
_LAUNCH = launcher_source('ros2cli_py.daemon_server:serve', argv=True, stop=True)


def spawn(idle_timeout: float = IDLE_TIMEOUT_S) -> None:
    """Start a daemon in the background, detached from this process (returns at once)."""
    import subprocess
    log = os.environ.get(LOG_ENV)
    # never the caller's pipes: a reader waiting for their end would wait for the daemon
    errors: Any = open(log, 'ab') if log else subprocess.DEVNULL
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


def start(wait: float = START_WAIT_S) -> bool:
    """Start a daemon and wait until it answers; returns whether one answers."""
    spawn()
    deadline = time.monotonic() + wait
    while time.monotonic() < deadline:
        if is_running():
            return True
        time.sleep(0.05)
    return is_running()


def _ask_to_exit(client: Client) -> None:
    try:
        client.call('shutdown')
    except (DaemonError, DaemonCallError, ValueError):
        pass
    finally:
        client.close()


def stop(wait: float = START_WAIT_S) -> bool:
    """Ask the running daemon to exit; returns False if none was running."""
    client = connect()
    if client is None:
        return False
    _ask_to_exit(client)
    deadline = time.monotonic() + wait
    while time.monotonic() < deadline and os.path.exists(socket_path()):
        time.sleep(0.05)
    return True


def stop_other_daemons(own_path: str) -> None:
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
        if client is not None:
            _ask_to_exit(client)
