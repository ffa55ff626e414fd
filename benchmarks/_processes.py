# SPDX-License-Identifier: Apache-2.0
"""Helpers shared by the benchmark scripts (not a benchmark itself: bench.sh skips `_*.py`)."""

from workspace_testing import stop


def interrupt_and_reap(proc, timeout=10.0):
    """Ctrl-C a node process as a user would and make sure it is gone (workspace_testing.stop)."""
    return stop(proc, timeout)
