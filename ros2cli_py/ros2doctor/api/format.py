# SPDX-License-Identifier: Apache-2.0
"""Printing of reports and of the one-line warnings and errors of checks."""

import sys
from typing import List
from typing import Tuple


def compute_padding(report_items: List[Tuple[str, object]]) -> int:
    """
    Return the width of the item-name column of a report.

    At least 8; when a name is 8 characters or longer, the longest name plus 4.
    """
    padding = 8
    if not report_items:
        return padding
    longest = max(len(str(name)) for name, _ in report_items)
    if longest >= padding:
        padding = longest + 4
    return padding


def format_print(report) -> None:
    """Print a report: a blank line, its name, then one ``name: value`` line per item."""
    print('\n  ', report.name)
    padding = compute_padding(report.items)
    for name, value in report.items:
        print(f'{name:{padding}}: {value}')


def _emit(msg: str, stacklevel: int) -> None:
    """Print ``<file>: <line>: UserWarning: <msg>`` on stderr, as ros2doctor's warnings."""
    frame = sys._getframe(stacklevel)
    text = ' '.join(str(msg).split('\n'))
    print(f'{frame.f_code.co_filename}: {frame.f_lineno}: UserWarning: {text}',
          file=sys.stderr, flush=True)


def doctor_warn(msg: str) -> None:
    """Print a check's warning (one line on stderr, naming the caller's file and line)."""
    _emit(msg, 2)


def doctor_error(msg: str) -> None:
    """Print a check's error (one line on stderr, ``ERROR: `` before the message)."""
    _emit(f'ERROR: {msg}', 2)
