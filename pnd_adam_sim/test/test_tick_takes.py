# SPDX-License-Identifier: Apache-2.0
"""
The loop takes every waiting command in its tick (issue 40), and no input starves another.

adam_sim has no listener or wait-set thread: each tick starts by taking everything waiting
in the rt/lowcmd and rt/handcmd readers (CommandIntake.drain) and applying the valid samples
in arrival order. Here the simulator runs in this process on its own DeadlineLoop, with a
Cyclone DDS peer in the same process that writes from inside the loop, after each tick:

- 5 lowcmd (2.5 kHz at 500 Hz) and 1 handcmd: all of them applied by the next tick;
- the other way round, 5 handcmd and 1 lowcmd: the same.

Cyclone delivers to a reader in the same process inside write(), so "by the next tick" is
exact; every figure is a count of the loop's own ticks, nothing is timed.
"""

import itertools
import os

from cyclonedds.domain import DomainParticipant
from cyclonedds.pub import DataWriter
from cyclonedds.topic import Topic
from node_runtime.loop import DeadlineLoop
from pnd_adam_description.joints import NUM_JOINTS
from pnd_adam_sim.simulator import AdamSimulator
from pnd_adam_sim.vendor_idl import (HandCmd_, LowCmd_, MotorCmd_, namespaced, TOPIC_HANDCMD,
                                     TOPIC_LOWCMD)
import pytest
from workspace_testing.adam_sim import cyclone_localhost_uri

TICKS = 250
FLOOD_PER_TICK = 5
_ns = itertools.count()


@pytest.fixture
def rig(domain_id):
    # Cyclone reads CYCLONEDDS_URI when the first participant of the process is created.
    os.environ['CYCLONEDDS_URI'] = cyclone_localhost_uri()
    namespace = f'/tick_takes_{os.getpid()}_{next(_ns)}'
    sim = AdamSimulator(domain_id, 500.0, namespace=namespace)
    dp = DomainParticipant(domain_id)
    low = DataWriter(dp, Topic(dp, namespaced(TOPIC_LOWCMD, namespace), LowCmd_))
    hand = DataWriter(dp, Topic(dp, namespaced(TOPIC_HANDCMD, namespace), HandCmd_))
    yield sim, low, hand
    del low, hand, dp
    sim.close()


def _lowcmd(seq):
    # A distinct valid command: its target shows which was applied last.
    return LowCmd_(mode_pr=0, motor_cmd=[MotorCmd_(mode=1, q=(seq % 100) * 1e-3, kp=10.0)
                                         for _ in range(NUM_JOINTS)])


def _handcmd(seq):
    return HandCmd_(position=[seq % 1000] * 12)


def _run(sim, ticks, after_tick):
    done = [0]

    def tick(_deadline):
        sim.tick()
        after_tick(done[0])
        done[0] += 1
    loop = DeadlineLoop(1.0 / sim.rate_hz, tick, raise_errors=True)
    loop.run_until_set(sim.stop_event, ticks)
    return loop


def _matched(sim, low, hand):
    """Write one of each until both are applied (discovery done); False if never."""
    for _ in range(100):
        low.write(_lowcmd(0))
        hand.write(_handcmd(0))
        _run(sim, 5, lambda k: None)
        if sim.model.lowcmd_applied and sim.model.handcmd_applied:
            return True
    return False


@pytest.mark.parametrize('flooded', ['lowcmd', 'handcmd'])
def test_every_command_applied_by_the_next_tick_while_one_input_floods(rig, flooded):
    sim, low, hand = rig
    assert _matched(sim, low, hand)
    model = sim.model
    low_before, hand_before = model.lowcmd_applied, model.handcmd_applied
    sent = {'lowcmd': 0, 'handcmd': 0}
    behind = []     # ticks that had not applied everything written before the previous one
    per_tick = {'lowcmd': FLOOD_PER_TICK if flooded == 'lowcmd' else 1,
                'handcmd': FLOOD_PER_TICK if flooded == 'handcmd' else 1}

    def after_tick(k):
        applied = (model.lowcmd_applied - low_before, model.handcmd_applied - hand_before)
        if applied != (sent['lowcmd'], sent['handcmd']):
            behind.append((k, applied, dict(sent)))
        for _ in range(per_tick['lowcmd']):
            sent['lowcmd'] += 1
            low.write(_lowcmd(sent['lowcmd']))
        for _ in range(per_tick['handcmd']):
            sent['handcmd'] += 1
            hand.write(_handcmd(sent['handcmd']))

    loop = _run(sim, TICKS, after_tick)
    assert loop.ticks == TICKS
    assert behind == []
    assert sim.reject_lowcmd.count == 0 and sim.reject_handcmd.count == 0
    # The last tick's writes were never ticked; everything before was applied, in order.
    assert model.lowcmd_applied - low_before == sent['lowcmd'] - per_tick['lowcmd']
    assert model.handcmd_applied - hand_before == sent['handcmd'] - per_tick['handcmd']
    last = sent['lowcmd'] - per_tick['lowcmd']
    assert list(model.q_des) == pytest.approx([(last % 100) * 1e-3] * NUM_JOINTS)
    last_hand = sent['handcmd'] - per_tick['handcmd']
    assert list(model.hand_target) == [last_hand % 1000] * 12
