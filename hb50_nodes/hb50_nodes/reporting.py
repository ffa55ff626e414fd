# SPDX-License-Identifier: Apache-2.0
"""
Bounded, rate-limited event reports (no ROS here).

Every event text that reaches a log line or /hb50/status may carry untrusted strings (a
source_node, a joint name). Here they are bounded: each quoted string is clipped to
QUOTE_LIMIT characters and the whole text to TEXT_LIMIT. Repeats of one reason are reported
at most once per period: the reason is the text with quoted strings and numbers blanked out,
so "t_pos[3] is not finite (nan)" from any source is one reason; the repeats in between are
counted and the count rides on the next report of that reason.
"""

from collections import OrderedDict
import re
import time

TEXT_LIMIT = 300      # characters of one report (log line text and Status.status)
QUOTE_LIMIT = 48      # characters kept of one quoted string inside a report
MAX_REASONS = 256     # distinct reasons remembered; the oldest is forgotten first
ELLIPSIS = '\u2026'

# A quoted string as repr() writes it (single or double quotes, backslash escapes); an
# unterminated quote runs to the end of the text.
_QUOTED = re.compile(r"""'[^'\\]*(?:\\.[^'\\]*)*(?:'|$)|"[^"\\]*(?:\\.[^"\\]*)*(?:"|$)""",
                     re.S)
_NUMBER = re.compile(r'[-+]?(?:\d+\.?\d*(?:e[-+]?\d+)?|nan|inf)', re.I)


def clip(text, limit=TEXT_LIMIT):
    """Return `text` cut to `limit` characters, marking the cut with the original length."""
    if len(text) <= limit:
        return text
    note = f'{ELLIPSIS}({len(text)} chars)'
    return text[:max(0, limit - len(note))] + note


def clip_repr(value, limit=QUOTE_LIMIT):
    """repr() of an untrusted string, at most about `limit` characters of it."""
    if len(value) > limit:
        return repr(value[:limit]) + f'{ELLIPSIS}({len(value)} chars)'
    return repr(value)


def bound(text):
    """Clip every quoted string in `text`, then the whole text (linear in len(text))."""
    def shorten(match):
        quoted = match.group(0)
        if len(quoted) <= QUOTE_LIMIT + 2:
            return quoted
        return quoted[:QUOTE_LIMIT + 1] + ELLIPSIS + quoted[0]
    if len(text) > QUOTE_LIMIT + 2:
        text = _QUOTED.sub(shorten, text)
    return clip(text)


def reason_of(text):
    """Return the reason of a (bounded) report: quoted strings and numbers blanked out."""
    return _NUMBER.sub('#', _QUOTED.sub("'*'", text))


class ReportLimiter:
    """Lets each (level, reason) through at most once per `period` seconds."""

    def __init__(self, period=1.0, clock=time.monotonic):
        self.period = period
        self.clock = clock
        self._reasons = OrderedDict()   # (level, reason) -> [last report time, suppressed]
        self.suppressed = 0             # total, for tests and the exit summary

    def admit(self, level, text):
        """Return the text to report (with the count of suppressed repeats), or None."""
        key = (level, reason_of(text))
        now = self.clock()
        entry = self._reasons.get(key)
        if entry is not None and now - entry[0] < self.period:
            entry[1] += 1
            self.suppressed += 1
            return None
        if entry is None:
            entry = self._reasons[key] = [now, 0]
            if len(self._reasons) > MAX_REASONS:
                self._reasons.popitem(last=False)
        else:
            self._reasons.move_to_end(key)
        repeats, entry[0], entry[1] = entry[1], now, 0
        if repeats:
            note = f' (+{repeats} like it not reported)'
            return clip(text, TEXT_LIMIT - len(note)) + note
        return text
