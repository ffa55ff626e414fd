# SPDX-License-Identifier: Apache-2.0
"""The command watchdog: timeout -> safe damping, a fresh command -> its targets again."""

import numpy as np
from sim_runtime.watchdog import CommandWatchdog, JointLaw

PERIOD = 0.002


def law(watchdog, targets, now):
    """Return the law a simulator hands its physics at `now`: targets unless timed out."""
    return watchdog.damping() if watchdog.check(now) else targets


def test_damping_before_the_first_command():
    w = CommandWatchdog(timeout=0.5, damping_kd=2.0, joints=3)
    assert w.timed_out and w.check(0.0) and w.timeouts == 0
    kp, kd, q, dq, tau = w.damping()
    assert not kp.any() and not q.any() and not dq.any() and not tau.any()
    assert kd.tolist() == [2.0, 2.0, 2.0]


def test_timeout_damps_and_a_fresh_command_restores_the_targets():
    targets = JointLaw(np.full(3, 100.0), np.full(3, 5.0), np.full(3, 0.3), np.zeros(3),
                       np.full(3, 1.0))
    w = CommandWatchdog(timeout=0.1, damping_kd=1.0, joints=3)
    w.feed(0.0)
    assert not w.timed_out
    now = 0.0
    for _ in range(round(0.1 / PERIOD)):       # the command is in force for the timeout
        now += PERIOD
        assert law(w, targets, now) is targets
    now += PERIOD                              # one period more: safe damping
    damped = law(w, targets, now)
    assert w.timed_out and w.timeouts == 1
    assert not damped.kp.any() and damped.kd.tolist() == [1.0] * 3 and not damped.tau.any()
    for _ in range(10):                        # it stays, counted once
        now += PERIOD
        assert w.check(now)
    assert w.timeouts == 1
    w.feed(now)                                # the next valid command takes over at once
    assert not w.timed_out
    assert law(w, targets, now + PERIOD) is targets
    now += 0.2
    assert w.check(now) and w.timeouts == 2


def test_expired_asks_without_counting():
    w = CommandWatchdog(timeout=0.5, damping_kd=1.0, joints=1)
    w.feed(1.0)
    assert not w.expired(1.5) and w.expired(1.6)
    assert not w.timed_out and w.timeouts == 0


def test_timeout_zero_keeps_the_last_command():
    w = CommandWatchdog(timeout=0.0, damping_kd=1.0, joints=2)
    assert not w.timed_out and not w.check(0.0)
    w.feed(0.0)
    assert not w.check(1e6) and w.timeouts == 0


def test_damping_arrays_are_new_each_time():
    w = CommandWatchdog(timeout=1.0, damping_kd=1.0, joints=2)
    first = w.damping()
    first.kd[:] = 7.0
    assert w.damping().kd.tolist() == [1.0, 1.0]
