"""500 Hz loop on a dedicated thread: sleep to an absolute deadline, then spin the last
`busy_wait` seconds. Measured on this machine (see README) it has far lower period jitter than
an executor timer; the executor then only serves subscriptions and slow timers."""

import sys
import threading
import time
import traceback


class PeriodicThread:
    """Calls `fn(now_s)` every `period` s (now_s = time.monotonic()) until stop()."""

    def __init__(self, period, fn, busy_wait=0.0002, name='hb50-loop', alive=lambda: True):
        self.period = period
        self.alive = alive          # False once the ROS context is shut down
        self.errors = 0
        self.fn = fn
        self.busy_wait = busy_wait
        self.overruns = 0
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, name=name, daemon=True)

    def start(self):
        # Python hands the GIL over only every switch interval (5 ms by default): a thread
        # waking for its deadline would wait that long behind a busy one.
        sys.setswitchinterval(min(sys.getswitchinterval(), 0.0002))
        self._thread.start()

    def stop(self, timeout=1.0):
        self._stop.set()
        if self._thread.is_alive() and self._thread is not threading.current_thread():
            self._thread.join(timeout)

    def _run(self):
        period_ns = int(self.period * 1e9)
        spin_ns = int(self.busy_wait * 1e9)
        deadline = time.monotonic_ns() + period_ns
        while not self._stop.is_set():
            remaining = deadline - time.monotonic_ns() - spin_ns
            if remaining > 0:
                time.sleep(remaining * 1e-9)
            while time.monotonic_ns() < deadline:
                time.sleep(0)   # releases the GIL while spinning
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
                deadline += missed * period_ns
