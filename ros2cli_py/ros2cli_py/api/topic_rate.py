# SPDX-License-Identifier: Apache-2.0
"""The statistics of `topic hz` and `topic delay`: a window of samples, a report a second."""

import math
from typing import List, Optional, Tuple

#: (mean, min, max, std dev, n) of a window
Stats = Tuple[float, float, float, float, int]


class RateWindow:
    """ros2cli's hz/delay statistics over the last ``window`` samples, printed once a second."""

    def __init__(self, window: int) -> None:
        self.window = window
        self.samples: List[float] = []
        self.last_printed: float = 0

    def add(self, value: float) -> None:
        """Append a sample, keeping at most ``window``."""
        self.samples.append(value)
        if len(self.samples) > self.window:
            del self.samples[0]

    def report_due(self, last_ns: Optional[float]) -> bool:
        """
        Return True when a report is due for a message received at ``last_ns``.

        The first sample only starts the clock; after that one report a second, as ros2cli.
        """
        if not self.samples or last_ns is None:     # (a sample comes with its time)
            return False
        if self.last_printed == 0:
            self.last_printed = last_ns
            return False
        if last_ns < self.last_printed + 1e9:
            return False
        self.last_printed = last_ns
        return True

    def stats(self) -> Stats:
        """(mean, min, max, std dev, n) of the samples."""
        n = len(self.samples)
        mean = sum(self.samples) / n
        std = math.sqrt(sum((x - mean) ** 2 for x in self.samples) / n)
        return mean, min(self.samples), max(self.samples), std, n
