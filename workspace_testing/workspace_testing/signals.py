# SPDX-License-Identifier: Apache-2.0
"""
Whether a process has installed its signal handlers yet, read from /proc/<pid>/status.

A test that checks "a signal at any moment stops the node cleanly" sends its first signal as
soon as the process catches it (the launcher's first lines ran), i.e. during its imports.
Before that the OS default action applies and no Python code of the process can act.
"""

import signal
import time
from typing import Iterable, Optional, Protocol

#: The signals a node's launcher handles.
STOP_SIGNALS = (signal.SIGINT, signal.SIGTERM)


class Process(Protocol):
    """What is polled: a subprocess.Popen or a workspace_testing.NodeProcess."""

    @property
    def pid(self) -> int:
        """Return the process id."""

    def poll(self) -> Optional[int]:
        """Return the exit code, None while it runs."""


def caught_signals(pid: int) -> int:
    """Return the mask of the signals `pid` handles (SigCgt), 0 when it is gone."""
    try:
        with open(f'/proc/{pid}/status') as f:
            for line in f:
                if line.startswith('SigCgt:'):
                    return int(line.split()[1], 16)
    except OSError:
        pass
    return 0


def _mask(signals: Iterable[int]) -> int:
    mask = 0
    for sig in signals:
        mask |= 1 << (sig - 1)
    return mask


def catches(pid: int, signals: Iterable[int] = STOP_SIGNALS) -> bool:
    """Return True once `pid` has a handler for each of `signals`."""
    want = _mask(signals)
    return caught_signals(pid) & want == want


def wait_for_handlers(proc: Process, timeout: float = 30.0,
                      signals: Iterable[int] = STOP_SIGNALS, period: float = 0.002) -> float:
    """
    Wait until `proc` catches each of `signals` (by default SIGINT and SIGTERM).

    Returns the monotonic time it was seen. Raises AssertionError when the process exits
    first or `timeout` s pass.
    """
    want = _mask(signals)
    deadline = time.monotonic() + timeout
    while True:
        assert proc.poll() is None, f'process {proc.pid} exited before it handled signals'
        if caught_signals(proc.pid) & want == want:
            return time.monotonic()
        if time.monotonic() >= deadline:
            raise AssertionError(f'process {proc.pid} never installed its signal handlers '
                                 f'(within {timeout:g} s)')
        time.sleep(period)
