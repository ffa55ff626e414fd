# SPDX-License-Identifier: Apache-2.0
"""
A fixed-rate loop that drives the executor in the calling thread.

Between two deadlines the loop spins the executor with a timeout that ends at the next
deadline, so subscriptions and slow timers are served in the same thread as the tick: no
second Python thread, no GIL hand-off, no switch-interval change. By default it waits by
sleeping (in the executor's wait, with the thread's timer slack reduced to 1 us); a busy-wait
before each deadline and SCHED_FIFO stay available as options.
"""

import ctypes
import os
import sys
import time
import traceback
from typing import Any, Callable, Optional, Protocol


_PR_SET_TIMERSLACK = 29


class SpinOnce(Protocol):
    """What the loop needs of an executor (rclpy's EventsExecutor, SingleThreadedExecutor)."""

    def spin_once(self, timeout_sec: Optional[float] = None) -> None:
        """Serve at most one ready callback, waiting up to timeout_sec for one."""


def reduce_timer_slack(slack_ns: int = 1000) -> bool:
    """
    Set the calling thread's timer slack to `slack_ns`; False where that is not possible.

    Linux lets a sleeping thread wake up to its timer slack late (50 us by default) so it can
    batch wakeups; 1 us makes a sleep to a deadline end closer to it.
    """
    if not sys.platform.startswith('linux'):
        return False
    try:
        libc = ctypes.CDLL(None, use_errno=True)
        status: int = libc.prctl(_PR_SET_TIMERSLACK, slack_ns, 0, 0, 0)
        return status == 0
    except (OSError, AttributeError):
        return False


def set_realtime(priority: int) -> Optional[str]:
    """Put the calling thread in SCHED_FIFO at `priority`; None on success, else the reason."""
    if not hasattr(os, 'sched_setscheduler'):
        return 'SCHED_FIFO is not supported on this platform'
    try:
        os.sched_setscheduler(0, os.SCHED_FIFO, os.sched_param(priority))
    except (OSError, ValueError) as exc:
        return str(exc)
    return None


class StopWait:
    """
    What a DeadlineLoop spins in a process without rclpy: a wait on a stop Event.

    The loop sleeps to its next deadline in ``spin_once(timeout)`` and wakes at once when
    the Event is set (node_runtime.stop.event()).
    """

    def __init__(self, event: Any) -> None:
        self._event = event

    def spin_once(self, timeout_sec: Optional[float] = None) -> None:
        """Wait up to timeout_sec s, or until the Event is set."""
        self._event.wait(timeout_sec)


class DeadlineLoop:
    """
    Calls `tick(deadline_s)` every `period` s and spins `executor` in between, in one thread.

    deadline_s is the tick's deadline on time.monotonic()'s scale. The executor is spun at
    least once per period even when a tick overruns, so a subscription is never starved by
    the loop, and the tick runs at the first deadline after any callback, so a flood on a
    subscription never starves the loop (one spin_once serves one callback).

    After a stall of more than a period the missed ticks but the latest are skipped (the phase
    is kept; the latest runs at once) and counted: `missed_slots` counts periods without a
    tick the way a subscriber counts stamp gaps (a wake interval of k periods = k - 1
    missing).
    """

    def __init__(self, period: float, tick: Callable[[float], None], *,
                 busy_wait: float = 0.0, rt_priority: int = 0, raise_errors: bool = False,
                 clock_ns: Callable[[], int] = time.monotonic_ns) -> None:
        if period <= 0.0:
            raise ValueError(f'period must be > 0, not {period}')
        self.period = period
        self.tick = tick
        self.busy_wait = max(0.0, busy_wait)
        self.rt_priority = rt_priority
        self.raise_errors = raise_errors    # a tick that raises ends run() with the error
        self.rt_error: Optional[str] = None     # why SCHED_FIFO was not obtained
        self._clock_ns = clock_ns
        self.ticks = 0
        self.spins = 0              # spin_once calls
        self.errors = 0             # ticks that raised
        self.overruns = 0           # ticks skipped after stalls (never run)
        self.stalls = 0             # times the loop fell more than a period behind
        self.max_late = 0.0         # s, the longest such delay
        self.missed_slots = 0

    def prepare_thread(self) -> None:
        """Reduce the timer slack and take SCHED_FIFO if asked (the calling thread only)."""
        reduce_timer_slack()
        if self.rt_priority > 0:
            self.rt_error = set_realtime(self.rt_priority)

    def run(self, executor: SpinOnce, keep_going: Callable[[], bool],
            stopping: Callable[[], bool] = lambda: False) -> None:
        """
        Run until keep_going() is false (checked at least once per callback and per tick).

        A tick that raises is printed and counted (raise_errors: re-raised, the loop ends),
        unless stopping() says the process is shutting down (its publishers may be invalid
        already): then the loop returns.
        """
        now_ns = self._clock_ns
        period_ns = int(self.period * 1e9)
        spin_ns = int(self.busy_wait * 1e9)
        deadline = now_ns() + period_ns
        last_wake = None
        spun = False                # the executor was spun since the last tick
        while keep_going():
            remaining = deadline - now_ns() - spin_ns
            if remaining > 0 or not spun:
                executor.spin_once(timeout_sec=max(remaining, 0) * 1e-9)
                self.spins += 1
                spun = True
                continue        # a callback may have run: check the stop and the time again
            while (wake := now_ns()) < deadline:
                time.sleep(0)
            if last_wake is not None:
                self.missed_slots += max(0, round((wake - last_wake) / period_ns) - 1)
            last_wake = wake
            try:
                self.tick(deadline * 1e-9)
            except Exception:   # noqa: B902 - one bad tick must not end the loop
                if stopping():
                    return
                if self.raise_errors:
                    raise
                self.errors += 1
                traceback.print_exc()
            self.ticks += 1
            spun = False
            deadline += period_ns
            late = now_ns() - deadline
            if late > period_ns:
                # More than a period behind (a VM stall): skip the older missed ticks, keep
                # the phase, and tick for the latest slot that has passed at once (it is less
                # than a period late), as a loop restarted at the stall's end would.
                missed = late // period_ns
                self.overruns += int(missed)
                self.stalls += 1
                self.max_late = max(self.max_late, late * 1e-9)
                deadline += missed * period_ns

    def run_until_set(self, event: Any, ticks: Optional[int] = None) -> None:
        """
        Tick in this thread (no executor) until ``event`` is set or ``ticks`` ticks ran.

        For a program without rclpy (a simulator's own loop): the loop sleeps on the Event
        to its next deadline and wakes at once when it is set. The calling thread is
        prepared first (prepare_thread).
        """
        self.prepare_thread()
        self.run(StopWait(event),
                 lambda: not event.is_set() and (ticks is None or self.ticks < ticks))

    def summary(self) -> Optional[str]:
        """One line on the skipped ticks, or None when none was skipped."""
        if not self.missed_slots:
            return None
        return (f'{1.0 / self.period:g} Hz loop: {self.missed_slots} ticks skipped '
                f'({self.stalls} stalls of more than a period, longest '
                f'{self.max_late * 1e3:.1f} ms behind)')
