# SPDX-License-Identifier: Apache-2.0
"""The periodic-node contract: which nodes the runner's loop ticks, in which order, how."""

from node_runtime.periodic import is_periodic, periodic_nodes, PeriodicNode, shared_loop


class Ticked:
    runs_in_loop = True

    def __init__(self, name, period, calls, busy_wait=0.0, rt_priority=0):
        self.name, self.period, self.calls = name, period, calls
        self.busy_wait, self.rt_priority = busy_wait, rt_priority

    def tick(self, deadline):
        self.calls.append((self.name, deadline))

    def start_timer(self):
        self.calls.append((self.name, 'timer'))


class Spun:
    """A node without runs_in_loop: served by the executor only."""


def test_only_nodes_that_ask_are_periodic():
    calls = []
    a, b = Ticked('a', 0.002, calls), Ticked('b', 0.002, calls)
    b.runs_in_loop = 'yes'      # not True: not ticked (the contract reads `is True`)
    assert [is_periodic(n) for n in (a, b, Spun())] == [True, False, False]
    assert periodic_nodes([Spun(), a, b]) == [a]


def test_one_loop_at_the_first_period_the_others_on_timers():
    calls = []
    fast1 = Ticked('fast1', 0.002, calls, busy_wait=0.0001)
    slow = Ticked('slow', 0.1, calls)
    fast2 = Ticked('fast2', 0.002, calls, rt_priority=5)
    loop = shared_loop([Spun(), fast1, slow, fast2])
    assert loop is not None and loop.period == 0.002
    assert calls == [('slow', 'timer')]
    assert loop.nodes == [fast1, fast2]
    assert (loop.busy_wait, loop.rt_priority) == (0.0001, 5)   # the largest of the nodes'
    loop.tick(1.5)
    assert calls[1:] == [('fast1', 1.5), ('fast2', 1.5)]       # in the order given


def test_no_periodic_node_no_loop():
    assert shared_loop([Spun(), Spun()]) is None


def test_a_conforming_class_is_a_periodic_node():
    node: PeriodicNode = Ticked('a', 0.01, [])     # what mypy checks in the runner's callers
    assert node.period == 0.01
