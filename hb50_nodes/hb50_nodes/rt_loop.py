# SPDX-License-Identifier: Apache-2.0
"""
500 Hz loop on a dedicated thread.

It sleeps to an absolute deadline, then spins the last `busy_wait` seconds. Measured on this
machine (see README) it has far lower period jitter than an executor timer; the executor then
only serves subscriptions and slow timers.
"""

import ctypes
import sys
import threading
import time
import traceback
from typing import Callable, Optional

# One home for the thread set-up both loop designs use (the deadline loop lives there too).
from node_runtime.loop import reduce_timer_slack, set_realtime

_PR_SET_NAME = 15


def set_thread_name(name: str) -> bool:
    """
    Name the calling OS thread (first 15 bytes), as `top -H` and /proc/<pid>/task show it.

    The benchmark tells the loop threads of a composed hb50_stack apart by it.
    """
    if not sys.platform.startswith('linux'):
        return False
    try:
        result: int = ctypes.CDLL(None, use_errno=True).prctl(
            _PR_SET_NAME, ctypes.c_char_p(name.encode()[:15]), 0, 0, 0)
        return result == 0
    except (OSError, AttributeError):
        return False


class PeriodicThread:
    """Calls `fn(now_s)` every `period` s (now_s = time.monotonic()) until stop()."""

    def __init__(self, period: float, fn: Callable[[float], None], busy_wait: float = 0.0001,
                 name: str = 'hb50-loop', alive: Callable[[], bool] = lambda: True,
                 rt_priority: int = 0) -> None:
        self.period = period
        self.alive = alive          # False once the ROS context is shut down
        self.errors = 0
        self.fn = fn
        self.busy_wait = busy_wait
        self.rt_priority = rt_priority
        self.rt_error: Optional[str] = None        # why SCHED_FIFO was not obtained, if asked for
        self._started = threading.Event()
        self.overruns = 0           # ticks skipped after stalls (never published)
        self.stalls = 0             # times the loop fell more than a period behind
        self.max_late = 0.0         # s, the longest such delay
        # Periods with no tick at all, counted like a subscriber counts stamp gaps: a wake
        # interval of k periods = k - 1 missing. A stall while the thread waits for its
        # deadline shows here and not in `overruns`.
        self.missed_slots = 0
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, name=name, daemon=True)

    def start(self) -> None:
        # Python hands the GIL over only every switch interval (5 ms by default): a thread
        # waking for its deadline would wait that long behind a busy one.
        sys.setswitchinterval(min(sys.getswitchinterval(), 0.0002))
        self._thread.start()
        self._started.wait(1.0)     # so that rt_error is known when start() returns

    def stop(self, timeout: float = 1.0) -> None:
        self._stop.set()
        if self._thread.is_alive() and self._thread is not threading.current_thread():
            self._thread.join(timeout)

    def _run(self) -> None:
        reduce_timer_slack()
        set_thread_name(self._thread.name)
        if self.rt_priority > 0:
            # Only this thread: the executor and DDS threads stay in the normal class.
            self.rt_error = set_realtime(self.rt_priority)
        self._started.set()
        period_ns = int(self.period * 1e9)
        spin_ns = int(self.busy_wait * 1e9)
        deadline = time.monotonic_ns() + period_ns
        last_wake: Optional[int] = None
        while not self._stop.is_set():
            remaining = deadline - time.monotonic_ns() - spin_ns
            if remaining > 0:
                time.sleep(remaining * 1e-9)
            while (wake := time.monotonic_ns()) < deadline:
                time.sleep(0)   # releases the GIL while spinning
            if last_wake is not None:
                self.missed_slots += max(0, round((wake - last_wake) / period_ns) - 1)
            last_wake = wake
            try:
                self.fn(deadline * 1e-9)
            except Exception:   # noqa: B902 - one bad tick must not kill the 500 Hz loop
                if self._stop.is_set() or not self.alive():
                    return      # shutting down: publishers are already invalid
                self.errors += 1
                traceback.print_exc()
            deadline += period_ns
            late = time.monotonic_ns() - deadline
            if late > period_ns:
                # More than a period behind (VM stall): skip the missed ticks, keep the phase.
                missed = late // period_ns + 1
                self.overruns += int(missed)
                self.stalls += 1
                self.max_late = max(self.max_late, late * 1e-9)
                deadline += missed * period_ns
