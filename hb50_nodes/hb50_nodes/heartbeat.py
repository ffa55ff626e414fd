# SPDX-License-Identifier: Apache-2.0
"""Heartbeat bookkeeping of the monitor, without ROS."""

from . import levels


class HeartbeatTracker:
    """
    Reports a node STALE after `timeout` s of silence, and OK when it returns.

    The silence counts from its last heartbeat, or from the tracker's start for expected
    nodes never heard.
    """

    def __init__(self, timeout, expected, now):
        self.timeout = timeout
        self.last = {name: now for name in expected}
        self.stale = set()

    def beat(self, node, now):
        self.last[node] = now
        if node in self.stale:
            self.stale.discard(node)
            return [(levels.OK, node, 'heartbeat resumed')]
        return []

    def check(self, now):
        events = []
        for node, last in self.last.items():
            if node not in self.stale and now - last > self.timeout:
                self.stale.add(node)
                events.append((levels.STALE, node, f'no heartbeat for {now - last:.2f} s'))
        return events
