# SPDX-License-Identifier: Apache-2.0
"""Bounded, rate-limited reporting of text that may come from untrusted peers."""

import time

#: Longest piece of untrusted text put in one log line.
MAX_TEXT = 200


def bounded(text, limit=MAX_TEXT):
    """``text`` (any object, via str) cut to ``limit`` characters, saying how much was cut."""
    text = str(text)
    if len(text) <= limit:
        return text
    return '%s... [%d more characters]' % (text[:limit], len(text) - limit)


class RateLimiter:
    """
    Allows one event per ``period_s`` for each key; counts what it suppressed.

    Keys come from configuration (topic names) and a fixed set of reasons, so the
    table stays bounded; ``max_keys`` bounds it anyway.
    """

    def __init__(self, period_s=1.0, max_keys=1024, clock=time.monotonic):
        self._period = period_s
        self._max_keys = max_keys
        self._clock = clock
        self._last = {}
        self._suppressed = {}

    def allow(self, key):
        """Return (allowed, how many were suppressed for this key since the last allowed)."""
        now = self._clock()
        last = self._last.get(key)
        if last is not None and now - last < self._period:
            self._suppressed[key] = self._suppressed.get(key, 0) + 1
            return False, 0
        if last is None and len(self._last) >= self._max_keys:
            self._last.clear()
            self._suppressed.clear()
        self._last[key] = now
        return True, self._suppressed.pop(key, 0)
