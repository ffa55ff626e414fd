# SPDX-License-Identifier: Apache-2.0
from hb50_nodes import levels
from hb50_nodes.arbitration import Arbiter


def feed(arb, source, start, rate, count):
    """Offer `count` commands at `rate` Hz; returns (apply flags, events)."""
    flags, events = [], []
    for i in range(count):
        apply, ev = arb.offer(source, start + i / rate)
        flags.append(apply)
        events += ev
    return flags, events


def test_primary_applies_by_default():
    arb = Arbiter()
    assert arb.offer('control_node', 0.0) == (True, [])


def test_custom_source_at_10hz_takes_over_on_third_command_and_releases_after_100ms():
    arb = Arbiter()
    flags, events = feed(arb, 'my_ctrl', 0.0, 10.0, 5)
    assert flags == [False, False, True, True, True]
    assert len(events) == 1 and events[0][0] == levels.WARN
    assert 'control_node -> my_ctrl' in events[0][1]
    # control_node is ignored while my_ctrl holds priority.
    assert arb.offer('control_node', 0.45)[0] is False
    # 150 ms (10 Hz + 50 % jitter margin) after my_ctrl's last command (t=0.4) it still
    # holds; after that control resumes.
    assert arb.poll(0.549) == []
    events = arb.poll(0.551)
    assert arb.active == 'control_node' and 'my_ctrl -> control_node' in events[0][1]
    assert arb.offer('control_node', 0.552) == (True, [])


def test_much_slower_than_10hz_never_takes_over():
    arb = Arbiter()
    flags, events = feed(arb, 'slow', 0.0, 6.0, 20)
    assert not any(flags) and events == []
    assert arb.active == 'control_node'


def test_second_custom_source_is_ignored_while_first_holds():
    arb = Arbiter()
    feed(arb, 'a', 0.0, 50.0, 3)
    flags, events = feed(arb, 'b', 0.001, 50.0, 3)
    assert not any(flags) and events == [] and arb.active == 'a'
