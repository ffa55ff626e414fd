# SPDX-License-Identifier: Apache-2.0
"""
Bounded logging of untrusted text.

Text that comes from outside (service item names, joint names) is shown through clip(): one
line, control characters escaped, at most CLIP_CHARS characters plus a note of how many were
cut. RateLimitedLog emits at most one line per reason per period and reports how many lines of
that reason it held back, so a flood of bad requests makes a few log lines, not one each.
"""
import threading
import time

CLIP_CHARS = 64


def clip(value, limit: int = CLIP_CHARS) -> str:
    """Quote untrusted text for a log line: repr() of at most `limit` characters."""
    text = value if isinstance(value, str) else str(value)
    if len(text) <= limit:
        return repr(text)
    return f'{text[:limit]!r}... (+{len(text) - limit} chars)'


class RateLimitedLog:
    """At most one line per reason per period; held-back lines are counted, not lost."""

    MAX_REASONS = 64

    def __init__(self, emit, period_s: float = 1.0, clock=time.monotonic):
        self._emit = emit                 # emit(level, text)
        self._period = float(period_s)
        self._clock = clock
        self._lock = threading.Lock()
        self._last = {}                   # reason -> time of the last emitted line
        self._held = {}                   # reason -> lines held back since then
        self.counts = {}                  # reason -> every line ever asked for

    def log(self, level: str, reason: str, text: str) -> bool:
        """Log text under reason (a fixed string, never untrusted); True if emitted."""
        now = self._clock()
        with self._lock:
            if reason not in self._last and len(self._last) >= self.MAX_REASONS:
                reason = 'other'
            self.counts[reason] = self.counts.get(reason, 0) + 1
            last = self._last.get(reason)
            if last is not None and now - last < self._period:
                self._held[reason] = self._held.get(reason, 0) + 1
                return False
            held = self._held.pop(reason, 0)
            self._last[reason] = now
        suffix = f' [{held} similar lines held back]' if held else ''
        self._emit(level, text + suffix)
        return True
