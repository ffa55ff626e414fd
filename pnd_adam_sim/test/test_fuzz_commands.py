# SPDX-License-Identifier: Apache-2.0
"""
Hostile LowCmd/HandCmd traffic against the running simulator (hypothesis, fixed seed).

The validity of every command sent is decided here, from the joint table and the rule of
INTERFACES.md (values within the limits, float32 rounding tolerated), independently of the
simulator's validation code; the simulator's exit line then has to account for every one
of them: applied == valid sent, rejected == invalid sent (the command readers are reliable
and keep every sample, the writers here too, so nothing is lost on the way). Meanwhile the
process stays alive, its memory and its log stay bounded, commands of absurd size are
rejected without being decoded, and a valid command still works afterwards.
"""

import math
import os
import signal
import struct
import time

from cyclonedds.core import Policy, Qos
from cyclonedds.domain import DomainParticipant
from cyclonedds.pub import DataWriter
from cyclonedds.sub import DataReader
from cyclonedds.topic import Topic
from hypothesis import given, HealthCheck, settings, strategies as st
from pnd_adam_description.joints import (HAND_CLOSED, HAND_DOF, HAND_OPEN, JOINT_LIMITS,
                                         KD_MAX, KI_MAX, KP_MAX, NUM_JOINTS)
from pnd_adam_sim.vendor_idl import (HandCmd_, HandState_, LowCmd_, LowState_, MotorCmd_,
                                     TOPIC_HANDCMD, TOPIC_HANDSTATE, TOPIC_LOWCMD,
                                     TOPIC_LOWSTATE)
import pytest
from workspace_testing.adam_sim import cyclone_localhost_uri, SimProcess

TOL = 1e-6  # INTERFACES.md: limits hold up to float32 rounding
ABSURD_SIZES = (1_000, 10_000, 50_000, 50_000)
# Rejection kinds the simulator can log (field and check, not values): the log bound.
MAX_KINDS = 24
LOG_LINE_BYTES = 300


def f32(x):
    return struct.unpack('<f', struct.pack('<f', x))[0]


def within(value, lo, hi):
    return math.isfinite(value) and lo - TOL <= value <= hi + TOL


def lowcmd_is_valid(cmd):
    """Decide whether the robot accepts this LowCmd as specified (the oracle)."""
    if cmd.mode_pr not in (0, 1) or len(cmd.motor_cmd) != NUM_JOINTS:
        return False
    return all(
        m.mode in (0, 1) and within(m.q, lim.q_min, lim.q_max)
        and within(m.dq, -lim.dq_max, lim.dq_max) and within(m.tau, -lim.tau_max, lim.tau_max)
        and within(m.kp, 0.0, KP_MAX) and within(m.kd, 0.0, KD_MAX)
        and within(m.ki, 0.0, KI_MAX)
        for m, lim in zip(cmd.motor_cmd, JOINT_LIMITS))


def handcmd_is_valid(cmd):
    return all(HAND_CLOSED <= p <= HAND_OPEN for p in cmd.position)


def raw_lowcmd(entries):
    """
    Return a LowCmd_ of `entries` motor commands, serialized directly.

    (Serializing 50 000 entries through the dataclasses would take seconds).
    """
    one = LowCmd_(mode_pr=0, motor_cmd=[MotorCmd_(mode=1, q=0.1, kp=10.0)]).serialize()
    header, entry, tail = one[:12], one[12:-4], one[-4:]
    data = header[:8] + struct.pack('<I', entries) + entry * entries + tail
    cmd = LowCmd_(mode_pr=0, motor_cmd=[])
    cmd.serialize = lambda use_version_2=None: data  # DataWriter.write asks the sample
    return cmd


# Values that straddle the limits, special floats and anything else a float32 holds.
floats = st.one_of(
    st.floats(width=32),
    st.sampled_from([0.0, -0.0, math.nan, math.inf, -math.inf, 1e30, -1e30]),
    st.floats(min_value=-5.0, max_value=5.0, width=32),
)
motor = st.builds(MotorCmd_, mode=st.integers(0, 255), q=floats, dq=floats, tau=floats,
                  kp=floats, kd=floats, ki=floats, reserve=st.integers(0, 2 ** 32 - 1))


@st.composite
def near_valid_lowcmd(draw):
    """Draw a valid command with a few fields redrawn: valid or invalid by a hair."""
    cmds = [MotorCmd_(mode=1, q=f32((lim.q_min + lim.q_max) / 2), kp=50.0, kd=2.0)
            for lim in JOINT_LIMITS]
    for _ in range(draw(st.integers(0, 3))):
        i = draw(st.integers(0, NUM_JOINTS - 1))
        lim = JOINT_LIMITS[i]
        field, lo, hi = draw(st.sampled_from([
            ('q', lim.q_min, lim.q_max), ('dq', -lim.dq_max, lim.dq_max),
            ('tau', -lim.tau_max, lim.tau_max), ('kp', 0.0, KP_MAX), ('kd', 0.0, KD_MAX),
            ('ki', 0.0, KI_MAX)]))
        span = hi - lo
        value = draw(st.one_of(floats, st.floats(f32(lo - 0.01 * span), f32(hi + 0.01 * span),
                                                 width=32)))
        setattr(cmds[i], field, value)
    return LowCmd_(mode_pr=draw(st.sampled_from([0, 1, 0, 2, 255])), motor_cmd=cmds)


lowcmds = st.one_of(
    near_valid_lowcmd(),
    st.builds(LowCmd_, mode_pr=st.integers(0, 255),
              motor_cmd=st.lists(motor, min_size=0, max_size=2 * NUM_JOINTS),
              reserve=st.integers(0, 2 ** 32 - 1)),
    st.builds(LowCmd_, mode_pr=st.integers(0, 1),
              motor_cmd=st.lists(motor, min_size=NUM_JOINTS, max_size=NUM_JOINTS)),
)
handcmds = st.builds(
    HandCmd_,
    position=st.lists(st.one_of(st.integers(0, 2 ** 32 - 1), st.integers(990, 1010),
                                st.integers(HAND_CLOSED, HAND_OPEN)),
                      min_size=HAND_DOF, max_size=HAND_DOF),
    reserve=st.integers(0, 2 ** 32 - 1))


@pytest.fixture(scope='module')
def rig(domain_id):
    os.environ['CYCLONEDDS_URI'] = cyclone_localhost_uri()
    sim = SimProcess(domain_id, rate_hz=500)
    try:
        assert sim.wait_for('running:', 20), sim.lines
        dp = DomainParticipant(domain_id)
        # Reliable and KeepAll: write() waits rather than drops, so every sample arrives.
        keep_all = Qos(Policy.Reliability.Reliable(max_blocking_time=10 ** 10),
                       Policy.History.KeepAll)
        rig = {
            'sim': sim, 'sent': {'lowcmd': [0, 0], 'handcmd': [0, 0]},
            'lowcmd': DataWriter(dp, Topic(dp, TOPIC_LOWCMD, LowCmd_), qos=keep_all),
            'handcmd': DataWriter(dp, Topic(dp, TOPIC_HANDCMD, HandCmd_), qos=keep_all),
            'state': DataReader(dp, Topic(dp, TOPIC_LOWSTATE, LowState_),
                                qos=Qos(Policy.History.KeepLast(1))),
            'hand': DataReader(dp, Topic(dp, TOPIC_HANDSTATE, HandState_),
                               qos=Qos(Policy.History.KeepLast(1))),
        }
        wait_state(rig['state'], lambda s: True)
        # Let the command writers match the simulator's readers before anything is sent.
        end = time.monotonic() + 10
        while time.monotonic() < end and not (
                rig['lowcmd'].get_matched_subscriptions()
                and rig['handcmd'].get_matched_subscriptions()):
            time.sleep(0.05)
        rig['rss_start'] = sim.rss_bytes()
        rig['t_start'] = time.monotonic()
        rig['log_start'] = sim.log_bytes()
        yield rig
        del dp
    finally:
        sim.stop()


def wait_state(reader, pred, timeout=10.0):
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        for s in reader.take(N=10):
            if pred(s):
                return s
        time.sleep(0.01)
    raise AssertionError('no matching state within the timeout')


def send(rig, topic, cmd, valid):
    rig[topic].write(cmd)
    rig['sent'][topic][0 if valid else 1] += 1


@settings(derandomize=True, max_examples=200, deadline=None, database=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture,
                                 HealthCheck.too_slow])
@given(cmd=lowcmds)
def test_fuzzed_lowcmd(rig, cmd):
    send(rig, 'lowcmd', cmd, lowcmd_is_valid(cmd))
    assert rig['sim'].proc.poll() is None, rig['sim'].lines[-5:]


@settings(derandomize=True, max_examples=100, deadline=None, database=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture,
                                 HealthCheck.too_slow])
@given(cmd=handcmds)
def test_fuzzed_handcmd(rig, cmd):
    send(rig, 'handcmd', cmd, handcmd_is_valid(cmd))
    assert rig['sim'].proc.poll() is None, rig['sim'].lines[-5:]


def test_absurd_sizes_rejected_unread(rig):
    sim = rig['sim']
    # CPU time, not wall time, so that a loaded machine does not change the figure: the
    # simulator's CPU use while absurd commands arrive against the same span without them.
    # Decoding the 111 000 entries would cost it ~1-2 s of CPU (its 500 Hz loop stalled
    # 0.4 s for one command of 50 000); checked by size, they cost next to nothing. The
    # margin covers the loop's own CPU use varying between the two spans on a loaded host.
    span = 0.2 * len(ABSURD_SIZES) + 1.0
    cpu = sim.cpu_seconds()
    time.sleep(span)
    idle = sim.cpu_seconds() - cpu
    cpu = sim.cpu_seconds()
    for entries in ABSURD_SIZES:
        send(rig, 'lowcmd', raw_lowcmd(entries), False)
        time.sleep(0.2)
    time.sleep(1.0)
    busy = sim.cpu_seconds() - cpu
    assert sim.wait_for('larger than any valid command', 10), sim.lines[-5:]
    assert sim.proc.poll() is None
    assert busy - idle < 0.5, (busy, idle)


def test_valid_commands_still_work_and_nothing_invalid_was_applied(rig):
    sim = rig['sim']
    arm = LowCmd_(mode_pr=0, motor_cmd=[
        MotorCmd_(mode=1 if i >= 5 else 0, q=0.25 if i >= 5 else 0.0, kp=100.0, kd=5.0)
        for i in range(NUM_JOINTS)])
    hand = HandCmd_(position=[0, 100, 200, 300, 400, 500, 600, 700, 800, 900, 1000, 0])
    assert lowcmd_is_valid(arm) and handcmd_is_valid(hand)
    end = time.monotonic() + 15
    reached = False
    while not reached and time.monotonic() < end:
        send(rig, 'lowcmd', arm, True)
        send(rig, 'handcmd', hand, True)
        time.sleep(0.05)
        s = rig['state'].take(N=1)
        h = rig['hand'].take(N=1)
        reached = (s and all(abs(m.q - 0.25) < 0.02 for m in s[0].motor_state[5:])
                   and h and list(h[0].position) == list(hand.position))
    assert reached, sim.lines[-5:]
    elapsed = time.monotonic() - rig['t_start']
    log_bytes = sim.log_bytes() - rig['log_start']
    rss_growth = sim.rss_bytes() - rig['rss_start']
    result = sim.stop()
    assert (result.returncode, result.signal) == (0, signal.SIGTERM), sim.lines[-5:]
    counters = sim.counters()
    assert counters, sim.lines[-5:]
    (low_ok, low_bad), (hand_ok, hand_bad) = rig['sent']['lowcmd'], rig['sent']['handcmd']
    assert low_bad > 100 and hand_bad > 50 and low_ok > 10 and hand_ok > 10
    # Every command accounted for: the valid ones applied, every invalid one rejected.
    assert (counters['lowcmd_applied'], counters['lowcmd_rejected']) == (low_ok, low_bad)
    assert (counters['handcmd_applied'], counters['handcmd_rejected']) == (hand_ok, hand_bad)
    # The log grows by at most one line per rejection kind and second, whatever is sent.
    assert log_bytes <= MAX_KINDS * LOG_LINE_BYTES * (elapsed + 1), log_bytes
    # Memory: the 1.6 MB commands were not decoded into 50 000 objects, nothing piles up.
    assert rss_growth < 64 * 2 ** 20, rss_growth
