# SPDX-License-Identifier: Apache-2.0
"""
Bounded logging of untrusted text.

Text that comes from outside (service item names, joint names) is shown through clip(): one
line, control characters escaped, at most CLIP_CHARS characters plus node_runtime's cut
marker. RateLimitedLog emits at most one line per reason per period and reports how many lines of
that reason it held back, so a flood of bad requests makes a few log lines, not one each
(the limiter is node_runtime.bounded_text.RateLimiter).
"""
import threading
import time
from typing import Callable, cast, Dict

from node_runtime.bounded_text import clip_repr, RateLimiter, suppressed_note

CLIP_CHARS = 64


def clip(value: object, limit: int = CLIP_CHARS) -> str:
    """Quote untrusted text for a log line: repr() of at most `limit` characters."""
    return clip_repr(value, limit)


class RateLimitedLog:
    """At most one line per reason per period; held-back lines are counted, not lost."""

    MAX_REASONS = 64

    def __init__(self, emit: Callable[[str, str], object], period_s: float = 1.0,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self._emit = emit                 # emit(level, text)
        # a reason past MAX_REASONS is counted as 'other'
        self._limiter = RateLimiter(float(period_s), self.MAX_REASONS, clock, on_full='merge',
                                    merge_key='other')
        self._lock = threading.Lock()
        self.counts: Dict[str, int] = {}  # reason -> every line ever asked for

    def log(self, level: str, reason: str, text: str) -> bool:
        """Log text under reason (a fixed string, never untrusted); True if emitted."""
        with self._lock:
            reason = cast(str, self._limiter.key(reason))   # a str reason or 'other'
            self.counts[reason] = self.counts.get(reason, 0) + 1
            allowed, held = self._limiter.allow(reason)
        if not allowed:
            return False
        self._emit(level, text + suppressed_note(held))
        return True
