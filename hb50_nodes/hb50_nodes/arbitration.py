# SPDX-License-Identifier: Apache-2.0
"""
Which command source bridge_node obeys.

Rule (the vendor documents only ">= 10 Hz custom publisher wins"; the details are ours):
- The primary source is `control_node`. Any other source_node is a custom source.
- max_gap = (1 + jitter_margin) / min_rate: 150 ms by default (min_rate 10 Hz, margin 0.5), so
  that a nominal 10 Hz publisher with ordinary scheduling jitter does not flap.
- A custom source takes priority when `takeover_count` (default 3) consecutive VALID commands
  from it arrived with every gap <= max_gap. The command that completes the streak is the
  first one applied.
- It keeps priority while each next valid command arrives within max_gap of the previous one;
  after max_gap (150 ms) without one, the primary source resumes at once.
- While one custom source has priority, other custom sources are ignored (first come, first
  served); invalid commands never count towards a streak.
Commands from a source without priority are dropped, never applied.
"""

from dataclasses import dataclass, field
from typing import Dict, List, Tuple

from . import levels
from .levels import Event


@dataclass
class _Streak:
    last: float
    count: int


@dataclass
class Arbiter:
    primary: str = 'control_node'
    min_rate: float = 10.0
    takeover_count: int = 3
    jitter_margin: float = 0.5
    active: str = ''
    _streaks: Dict[str, _Streak] = field(default_factory=dict)

    def __post_init__(self) -> None:
        self.active = self.primary

    @property
    def max_gap(self) -> float:
        return (1.0 + self.jitter_margin) / self.min_rate

    def offer(self, source: str, now: float) -> Tuple[bool, List[Event]]:
        """
        Offer a valid command from `source` that arrived at `now` (s).

        Returns (apply, events).
        """
        events = self.poll(now)
        if source == self.primary:
            return self.active == self.primary, events
        streak = self._streaks.get(source)
        if streak is not None and now - streak.last <= self.max_gap:
            streak.count += 1
            streak.last = now
        else:
            streak = self._streaks[source] = _Streak(now, 1)
        if self.active == self.primary and streak.count >= self.takeover_count:
            self.active = source
            events.append((levels.WARN, f'command source switched: {self.primary} -> {source} '
                           f'({source} publishes at >= {self.min_rate:g} Hz)'))
        return self.active == source, events

    def poll(self, now: float) -> List[Event]:
        """Release a custom source that went quiet; returns the switch events."""
        events: List[Event] = []
        for source in [s for s, k in self._streaks.items() if now - k.last > self.max_gap]:
            del self._streaks[source]
            if source == self.active:
                self.active = self.primary
                events.append((levels.WARN, f'command source switched: {source} -> '
                               f'{self.primary} (no command from {source} for '
                               f'{self.max_gap * 1e3:.0f} ms)'))
        return events
