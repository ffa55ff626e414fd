# SPDX-License-Identifier: Apache-2.0
"""CPU % of processes from /proc (utime + stime) over a wall-clock window, and the load."""

import os
import time
from typing import Iterable, Optional


def cpu_seconds(pid: int) -> float:
    """User + system CPU seconds the process `pid` has used so far."""
    with open(f'/proc/{pid}/stat', encoding='utf-8') as f:
        # The command name (field 2) may hold spaces: split after its closing parenthesis.
        fields = f.read().rsplit(')', 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf('SC_CLK_TCK')


class CpuWindow:
    """CPU % of one core of each pid, from this object's creation to percent()."""

    def __init__(self, pids: Iterable[int]) -> None:
        self.pids = list(pids)
        self._cpu0 = [cpu_seconds(pid) for pid in self.pids]
        self._t0 = time.monotonic()

    def percent(self) -> list[float]:
        """Return the list of CPU % (100 = one core) since the window opened."""
        wall = time.monotonic() - self._t0
        return [100.0 * (cpu_seconds(pid) - c) / wall for pid, c in zip(self.pids, self._cpu0)]


def measure_cpu(pids: Iterable[int], seconds: float) -> list[float]:
    """CPU % of one core of each pid over the same `seconds` (sleeping meanwhile)."""
    window = CpuWindow(pids)
    time.sleep(seconds)
    return window.percent()


def load(minutes: Optional[int] = 1) -> str:
    """Load average as text: the 1-minute figure, or 1/5/15 with minutes=None."""
    values = os.getloadavg()
    if minutes is None:
        return '/'.join(f'{x:.2f}' for x in values)
    return f'{values[{1: 0, 5: 1, 15: 2}[minutes]]:.2f}'
