# SPDX-License-Identifier: Apache-2.0
"""Helpers of launch tests: filters of process output, launch_process."""

import os
import re
from typing import Callable, Iterable, Optional

from .process import launch_process, ProcessProxy

__all__ = ['basic_output_filter', 'launch_process', 'normalize_lineseps', 'ProcessProxy']


def basic_output_filter(filtered_prefixes: Optional[Iterable[str]] = None,
                        filtered_patterns: Optional[Iterable[str]] = None,
                        filtered_rmw_implementation: Optional[str] = None
                        ) -> Callable[[str], str]:
    """Return a filter dropping lines with the given prefixes or matching the patterns."""
    prefixes = tuple(filtered_prefixes or ())
    patterns = [re.compile(p) for p in filtered_patterns or ()]

    def output_filter(output: str) -> str:
        kept = []
        for line in output.splitlines(keepends=True):
            if prefixes and line.startswith(prefixes):
                continue
            if any(p.match(line) for p in patterns):
                continue
            kept.append(line)
        return ''.join(kept)
    return output_filter


def normalize_lineseps(text: str) -> str:
    """Return the text with the platform's line separators as newlines."""
    return text.replace(os.linesep, '\n')
