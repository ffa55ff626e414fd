# SPDX-License-Identifier: Apache-2.0
"""Local TCP ports for tests: a free one to give a server, and whether one accepts."""

import socket


def free_port(host: str = '127.0.0.1') -> int:
    """Return a TCP port nobody listens on now (the kernel's pick; free until taken)."""
    with socket.socket() as probe:
        probe.bind((host, 0))
        port: int = probe.getsockname()[1]
        return port


def accepting(port: int, host: str = '127.0.0.1', timeout: float = 0.5) -> bool:
    """Return True when a TCP connection to host:port is accepted."""
    try:
        socket.create_connection((host, port), timeout=timeout).close()
        return True
    except OSError:
        return False
