# SPDX-License-Identifier: Apache-2.0
"""DeadlineLoop: ticks and callbacks share one thread and neither starves the other (counts)."""

from node_runtime.loop import DeadlineLoop
import rclpy
from rclpy.experimental import EventsExecutor
from std_msgs.msg import UInt32

PERIOD_NS = 2_000_000       # 500 Hz


class SimulatedExecutor:
    """
    An executor on a simulated clock: spin_once serves one pending callback or waits.

    Serving a callback costs `cost_ns` of simulated time; with nothing pending, spin_once
    advances the clock by its timeout. `flood` keeps a callback pending at every call.
    """

    def __init__(self, cost_ns, flood=True):
        self.now = 0
        self.cost_ns = cost_ns
        self.flood = flood
        self.pending = 0
        self.served = 0
        self.served_at = []     # simulated ns of each served callback

    def clock_ns(self):
        return self.now

    def spin_once(self, timeout_sec=None):
        if self.flood or self.pending:
            self.pending = max(0, self.pending - 1)
            self.now += self.cost_ns
            self.served += 1
            self.served_at.append(self.now)
        else:
            self.now += int(timeout_sec * 1e9)


def _run(executor, ticks, slow_every=50):
    seen = {'ticks': [], 'slow': 0, 'served_before_tick': []}

    def tick(deadline_s):
        seen['ticks'].append(deadline_s)
        seen['served_before_tick'].append(executor.served)
        if len(seen['ticks']) % slow_every == 0:
            seen['slow'] += 1

    loop = DeadlineLoop(PERIOD_NS * 1e-9, tick, clock_ns=executor.clock_ns)
    loop.run(executor, lambda: len(seen['ticks']) < ticks)
    return loop, seen


def test_a_flooded_subscription_does_not_starve_the_ticks_or_the_slow_topic():
    # Each callback takes 0.3 ms and one is always pending: the loop still ticks at every
    # deadline (no tick skipped) and the 10 Hz topic gets exactly every 50th sample.
    executor = SimulatedExecutor(cost_ns=300_000)
    loop, seen = _run(executor, ticks=1000)
    assert loop.ticks == 1000
    assert loop.overruns == 0 and loop.missed_slots == 0
    assert seen['slow'] == 20
    # Between any two ticks the executor served callbacks (at most one period's worth).
    served = seen['served_before_tick']
    per_period = [b - a for a, b in zip(served, served[1:])]
    assert min(per_period) >= 1
    assert max(per_period) <= PERIOD_NS // 300_000 + 1


def test_an_overrunning_tick_still_lets_the_executor_serve_once_per_period():
    executor = SimulatedExecutor(cost_ns=100_000)
    count = {'n': 0}

    def slow_tick(deadline_s):
        count['n'] += 1
        executor.now += 3 * PERIOD_NS      # a tick that takes three periods

    loop = DeadlineLoop(PERIOD_NS * 1e-9, slow_tick, clock_ns=executor.clock_ns)
    loop.run(executor, lambda: count['n'] < 20)
    assert executor.served >= 19        # one callback after every tick but the last
    assert loop.overruns > 0 and loop.stalls == 20


def test_with_nothing_pending_every_deadline_gets_one_tick():
    executor = SimulatedExecutor(cost_ns=0, flood=False)
    loop, seen = _run(executor, ticks=500)
    assert loop.ticks == 500 and loop.missed_slots == 0
    steps = {round((b - a) * 1e9) for a, b in zip(seen['ticks'], seen['ticks'][1:])}
    assert steps == {PERIOD_NS}


def test_a_real_subscription_is_served_by_the_loop_thread():
    # rclpy + EventsExecutor: every message published by the tick reaches the subscription
    # in the same thread, and a 10 Hz counter fed by the tick is exact.
    context = rclpy.Context()
    rclpy.init(context=context)
    try:
        node = rclpy.create_node('deadline_loop_test', context=context)
        received = []
        node.create_subscription(UInt32, 'deadline_loop_test', lambda m: received.append(m.data),
                                 100)
        pub = node.create_publisher(UInt32, 'deadline_loop_test', 100)
        executor = EventsExecutor(context=context)
        executor.add_node(node)
        sent = {'n': 0, 'slow': 0}

        def tick(deadline_s):
            sent['n'] += 1
            pub.publish(UInt32(data=sent['n']))
            if sent['n'] % 50 == 0:
                sent['slow'] += 1

        loop = DeadlineLoop(0.002, tick)
        # Until 300 messages came back (bounded by 20 s of ticks under any load).
        loop.run(executor, lambda: len(received) < 300 and sent['n'] < 10_000)
        assert received[:300] == list(range(1, 301))
        assert sent['slow'] == sent['n'] // 50
        node.destroy_node()
        executor.shutdown(timeout_sec=1.0)
    finally:
        rclpy.try_shutdown(context=context)


def test_run_until_set_ticks_a_count_or_until_the_event():
    import threading
    ticks = []
    event = threading.Event()
    loop = DeadlineLoop(0.001, ticks.append)
    loop.run_until_set(event, ticks=25)
    assert loop.ticks == len(ticks) == 25
    assert ticks == sorted(ticks)       # one tick per deadline, in order

    def stop_after_thirty(deadline):
        if len(ticks) >= 30:
            event.set()
        ticks.append(deadline)
    loop = DeadlineLoop(0.001, stop_after_thirty)
    loop.run_until_set(event)           # no count: until the Event is set
    assert event.is_set() and loop.ticks == 6 and len(ticks) == 31
