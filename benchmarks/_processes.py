# SPDX-License-Identifier: Apache-2.0
"""Helpers shared by the benchmark scripts (not a benchmark itself: bench.sh skips `_*.py`)."""

import signal
import subprocess


def interrupt_and_reap(proc, timeout=10.0):
    """Ctrl-C a node process as a user would, SIGKILL it if it does not exit in time, and
    always reap it so no node is left running in the benchmark's DDS domain."""
    if proc.poll() is None:
        proc.send_signal(signal.SIGINT)
    try:
        proc.wait(timeout=timeout)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.wait()
