# SPDX-License-Identifier: Apache-2.0
"""Heartbeat bookkeeping of the monitor, without ROS."""

from typing import Dict, Iterable, List, Set, Tuple

from . import levels

# (level, node name, text)
NodeEvent = Tuple[int, str, str]


class HeartbeatTracker:
    """
    Reports a node STALE after `timeout` s of silence, and OK when it returns.

    The silence counts from its last heartbeat, or from the tracker's start for expected
    nodes never heard.
    """

    def __init__(self, timeout: float, expected: Iterable[str], now: float) -> None:
        self.timeout = timeout
        self.last: Dict[str, float] = {name: now for name in expected}
        self.stale: Set[str] = set()

    def beat(self, node: str, now: float) -> List[NodeEvent]:
        self.last[node] = now
        if node in self.stale:
            self.stale.discard(node)
            return [(levels.OK, node, 'heartbeat resumed')]
        return []

    def check(self, now: float) -> List[NodeEvent]:
        events: List[NodeEvent] = []
        for node, last in self.last.items():
            if node not in self.stale and now - last > self.timeout:
                self.stale.add(node)
                events.append((levels.STALE, node, f'no heartbeat for {now - last:.2f} s'))
        return events
