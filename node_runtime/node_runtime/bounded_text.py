# SPDX-License-Identifier: Apache-2.0
"""
Bounded, rate-limited reporting of text that may come from untrusted peers.

Text from outside (a peer's node name, a joint name, a topic payload) reaches a log line
only clipped: bounded() and clip() cut a text to a limit and say how much was cut,
clip_repr() quotes a string with repr() after cutting it; each cut ends with one marker,
`cut_marker()`: "…(N chars)", N the length of the whole text. RateLimiter lets each reason
through at most once per period and counts the repeats it held back, so that count can ride
on the next line of that reason (`suppressed_note()`: " (N similar suppressed)"): a flood of
bad input makes a few log lines, not one each. Its table of reasons is bounded (max_keys).
This is the workspace's one clipper and one wording; no ROS here.
"""

from collections import OrderedDict
import threading
import time
from typing import Callable, Hashable, Optional

#: Longest piece of untrusted text bounded() puts in one log line.
MAX_TEXT = 200
ELLIPSIS = '\u2026'


def cut_marker(length: int) -> str:
    """Return the marker that ends a cut text: an ellipsis and the whole text's length."""
    return f'{ELLIPSIS}({length} chars)'


def suppressed_note(count: int) -> str:
    """Return ' (N similar suppressed)' for the N repeats a RateLimiter held back ('' if 0)."""
    return f' ({count} similar suppressed)' if count else ''


def bounded(text: object, limit: int = MAX_TEXT) -> str:
    """``text`` (any object, via str): its first ``limit`` characters, then the cut marker."""
    text = str(text)
    if len(text) <= limit:
        return text
    return text[:limit] + cut_marker(len(text))


def clip(text: object, limit: int) -> str:
    """Return `text` (any object, via str) in at most `limit` characters, cut marker included."""
    text = str(text)
    if len(text) <= limit:
        return text
    note = cut_marker(len(text))
    return text[:max(0, limit - len(note))] + note


def clip_repr(value: object, limit: int) -> str:
    """repr() of an untrusted string, at most `limit` characters of it (length noted)."""
    value = str(value)
    if len(value) > limit:
        return repr(value[:limit]) + cut_marker(len(value))
    return repr(value)


class RateLimiter:
    """
    Allows one event per ``period_s`` for each key; counts what it suppressed.

    Keys are reasons from a fixed set or from configuration; ``max_keys`` bounds the
    table anyway (None: unbounded). When a new key arrives at a full table, ``on_full``
    says what happens: 'clear' forgets every key, 'oldest' forgets the key let through
    least recently, 'merge' counts the event under ``merge_key`` instead. Thread-safe.
    """

    def __init__(self, period_s: float = 1.0, max_keys: Optional[int] = 1024,
                 clock: Callable[[], float] = time.monotonic, on_full: str = 'clear',
                 merge_key: Hashable = 'other') -> None:
        if on_full not in ('clear', 'oldest', 'merge'):
            raise ValueError(f'on_full: {on_full!r} is not clear, oldest or merge')
        self.period = period_s
        self.clock = clock
        self._max_keys = max_keys
        self._on_full = on_full
        self._merge_key = merge_key
        self._lock = threading.Lock()
        # key -> [time let through, suppressed since]
        self._keys: 'OrderedDict[Hashable, list[float]]' = OrderedDict()
        self.suppressed = 0             # total, for tests and exit summaries

    def _full(self) -> bool:
        return self._max_keys is not None and len(self._keys) >= self._max_keys

    def key(self, key: Hashable) -> Hashable:
        """Return the key an event of ``key`` is counted under (see on_full='merge')."""
        if self._on_full == 'merge' and key not in self._keys and self._full():
            return self._merge_key
        return key

    def allow(self, key: Hashable) -> tuple[bool, int]:
        """Return (allowed, how many were suppressed for this key since the last allowed)."""
        with self._lock:
            key = self.key(key)
            now = self.clock()
            entry = self._keys.get(key)
            if entry is not None and now - entry[0] < self.period:
                entry[1] += 1
                self.suppressed += 1
                return False, 0
            if entry is None:
                if self._full() and self._on_full == 'clear':
                    self._keys.clear()
                elif self._full() and self._on_full == 'oldest':
                    self._keys.popitem(last=False)
                entry = self._keys[key] = [now, 0]
            else:
                self._keys.move_to_end(key)
            repeats, entry[0], entry[1] = entry[1], now, 0
            return True, int(repeats)    # the count shares the float-typed entry
