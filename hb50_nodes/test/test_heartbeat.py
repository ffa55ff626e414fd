# SPDX-License-Identifier: Apache-2.0
from hb50_nodes import levels
from hb50_nodes.heartbeat import HeartbeatTracker


def test_stale_after_timeout_and_ok_when_back():
    tr = HeartbeatTracker(1.0, ['bridge_node'], now=0.0)
    tr.beat('control_node', 0.2)
    assert tr.check(1.0) == []
    assert tr.check(1.01) == [(levels.STALE, 'bridge_node', 'no heartbeat for 1.01 s')]
    assert tr.check(1.1) == []          # reported once
    events = tr.check(1.3)
    assert [(e[0], e[1]) for e in events] == [(levels.STALE, 'control_node')]
    assert tr.beat('control_node', 2.0) == [(levels.OK, 'control_node', 'heartbeat resumed')]
    assert tr.beat('control_node', 2.5) == []
