# SPDX-License-Identifier: Apache-2.0
"""
Bounded, rate-limited event reports (no ROS here).

Every event text that reaches a log line or /hb50/status may carry untrusted strings (a
source_node, a joint name). Here they are bounded: each quoted string is clipped to
QUOTE_LIMIT characters and the whole text to TEXT_LIMIT. Repeats of one reason are reported
at most once per period: the reason is the text with quoted strings and numbers blanked out,
so "t_pos[3] is not finite (nan)" from any source is one reason; the repeats in between are
counted and the count rides on the next report of that reason. Clipping and the
rate limiter are node_runtime.bounded_text's; the reasons and limits are hb50's.
"""

import re
import time
from typing import Callable, Optional

from node_runtime.bounded_text import clip, clip_repr, ELLIPSIS, RateLimiter, suppressed_note

TEXT_LIMIT = 300      # characters of one report (log line text and Status.status)
QUOTE_LIMIT = 48      # characters kept of one quoted string inside a report
MAX_REASONS = 256     # distinct reasons remembered; the oldest is forgotten first

# A quoted string as repr() writes it (single or double quotes, backslash escapes); an
# unterminated quote runs to the end of the text.
_QUOTED = re.compile(r"""'[^'\\]*(?:\\.[^'\\]*)*(?:'|$)|"[^"\\]*(?:\\.[^"\\]*)*(?:"|$)""",
                     re.S)
_NUMBER = re.compile(r'[-+]?(?:\d+\.?\d*(?:e[-+]?\d+)?|nan|inf)', re.I)


def quote(value: object) -> str:
    """repr() of an untrusted string, at most about QUOTE_LIMIT characters of it."""
    return clip_repr(value, QUOTE_LIMIT)


def bound(text: str) -> str:
    """Clip every quoted string in `text`, then the whole text (linear in len(text))."""
    def shorten(match: 're.Match[str]') -> str:
        quoted = match.group(0)
        if len(quoted) <= QUOTE_LIMIT + 2:
            return quoted
        return quoted[:QUOTE_LIMIT + 1] + ELLIPSIS + quoted[0]
    if len(text) > QUOTE_LIMIT + 2:
        text = _QUOTED.sub(shorten, text)
    return clip(text, TEXT_LIMIT)


def reason_of(text: str) -> str:
    """Return the reason of a (bounded) report: quoted strings and numbers blanked out."""
    return _NUMBER.sub('#', _QUOTED.sub("'*'", text))


class ReportLimiter:
    """Lets each (level, reason) through at most once per `period` seconds."""

    def __init__(self, period: float = 1.0,
                 clock: Callable[[], float] = time.monotonic) -> None:
        # (level, reason) -> last report time and repeats; the oldest reason is forgotten
        self._limiter = RateLimiter(period, MAX_REASONS, clock, on_full='oldest')

    @property
    def suppressed(self) -> int:
        """Return how many reports were suppressed in all (tests, exit summary)."""
        return self._limiter.suppressed

    def admit(self, level: int, text: str) -> Optional[str]:
        """Return the text to report (with the count of suppressed repeats), or None."""
        allowed, repeats = self._limiter.allow((level, reason_of(text)))
        if not allowed:
            return None
        if repeats:
            note = suppressed_note(repeats)
            return clip(text, TEXT_LIMIT - len(note)) + note
        return text
