# SPDX-License-Identifier: Apache-2.0
"""
SIGINT/SIGTERM as a stop request, so an executable exits 0 whenever a signal lands.

An executable installs it first thing in its entry function, before its heavy imports
(DDS, rclpy, numpy), so a signal during imports or start-up sets a flag instead of raising
KeyboardInterrupt in the middle of an import or killing the process (SIGTERM's default).
The main thread then leaves its loop and shuts down in order: nothing is torn down under a
callback that is still running. The only window left is the interpreter's own start-up,
before the first line of the entry script runs: no Python code can cover that.
"""

import signal
import threading

STOP_SIGNALS = (signal.SIGINT, signal.SIGTERM)


class StopRequest:
    """A threading.Event set by SIGINT/SIGTERM once install() has run."""

    def __init__(self):
        self.event = threading.Event()
        self.signum = None

    def install(self, early=()):
        """
        Route SIGINT and SIGTERM to this request (main thread only).

        early: signals noted before this (see scripts/adam_sim); the first one counts.
        """
        for signum in STOP_SIGNALS:
            signal.signal(signum, self._on_signal)
        for signum in list(early)[:1]:
            self._on_signal(signum, None)
        return self

    def _on_signal(self, signum, frame):
        # Only a flag: the handler runs between two bytecodes of whatever the main thread
        # is doing, so it must not tear anything down itself.
        if self.signum is None:
            self.signum = signum
        self.event.set()

    def is_set(self):
        """Return True once a stop was requested."""
        return self.event.is_set()

    def wait(self, timeout=None):
        """Block until a stop is requested or timeout seconds passed; True if requested."""
        return self.event.wait(timeout)
