# SPDX-License-Identifier: Apache-2.0
"""The installed simulator process against a plain Cyclone DDS peer (this test process)."""

import math
import os
import time

from cyclonedds.core import Policy, Qos
from cyclonedds.domain import DomainParticipant
from cyclonedds.pub import DataWriter
from cyclonedds.sub import DataReader
from cyclonedds.topic import Topic

from pnd_adam_description.joints import NUM_JOINTS
from pnd_adam_sim.model import GRAVITY
from pnd_adam_sim.vendor_idl import (HandCmd_, HandState_, LowCmd_, LowState_, MotorCmd_,
                                     TOPIC_HANDCMD, TOPIC_HANDSTATE, TOPIC_LOWCMD,
                                     TOPIC_LOWSTATE)
import pytest
from workspace_testing.adam_sim import cyclone_localhost_uri, SimProcess


@pytest.fixture(scope='module')
def peer(domain_id):
    # Cyclone reads CYCLONEDDS_URI when the first participant of the process is created.
    os.environ['CYCLONEDDS_URI'] = cyclone_localhost_uri()
    sim = SimProcess(domain_id, rate_hz=500)
    try:
        assert sim.wait_for('running:', 20), sim.lines
        dp = DomainParticipant(domain_id)
        # Deep history so the test sees every sample, not only Cyclone's default last one.
        deep = Qos(Policy.History.KeepLast(1000))
        yield {
            'sim': sim,
            'state': DataReader(dp, Topic(dp, TOPIC_LOWSTATE, LowState_), qos=deep),
            'hand': DataReader(dp, Topic(dp, TOPIC_HANDSTATE, HandState_)),
            'cmd': DataWriter(dp, Topic(dp, TOPIC_LOWCMD, LowCmd_)),
            'handcmd': DataWriter(dp, Topic(dp, TOPIC_HANDCMD, HandCmd_)),
        }
        del dp
    finally:
        sim.stop()


def wait_sample(reader, pred=lambda s: True, timeout=10.0):
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        for s in reversed(reader.take(N=1000)):
            if pred(s):
                return s
        time.sleep(0.01)
    return None


def arm_cmd(q, kp=100.0, kd=5.0):
    return LowCmd_(mode_pr=0, motor_cmd=[
        MotorCmd_(mode=1 if i >= 5 else 0, q=q if i >= 5 else 0.0, kp=kp, kd=kd)
        for i in range(NUM_JOINTS)])


def test_lowstate_published_with_consistent_fields(peer):
    first = wait_sample(peer['state'])
    assert first is not None, peer['sim'].lines
    time.sleep(0.2)
    got = peer['state'].take(N=1000)
    assert len(got) > 10
    ticks = [s.tick for s in got]
    assert ticks == sorted(ticks) and ticks[-1] > first.tick
    s = got[-1]
    assert len(s.motor_state) == NUM_JOINTS and len(s.wireless_remote) == 40
    assert s.imu_state.quaternion == [1.0, 0.0, 0.0, 0.0]
    assert math.isclose(s.imu_state.accelerometer[2], GRAVITY, rel_tol=1e-6)
    b = s.battery_data
    assert b.status == 'OK' and b.voltage > 40 and b.current > 0
    assert math.isclose(b.power, b.voltage * b.current, rel_tol=1e-5)
    assert b.wh_accumulated > 0
    assert abs(b.timestamp_ms - time.time() * 1000) < 60_000


def test_lowcmd_moves_enabled_joints(peer):
    peer['cmd'].write(arm_cmd(0.3))
    s = wait_sample(peer['state'],
                    lambda s: all(abs(m.q - 0.3) < 0.01 for m in s.motor_state[5:]))
    assert s is not None, peer['sim'].lines[-5:]
    assert [m.mode for m in s.motor_state] == [0] * 5 + [1] * 14
    assert all(m.q == 0.0 for m in s.motor_state[:5])


def test_bad_lowcmd_logged_and_not_applied(peer):
    peer['cmd'].write(arm_cmd(0.2))
    assert wait_sample(peer['state'], lambda s: abs(s.motor_state[8].q - 0.2) < 0.01)
    short = arm_cmd(-0.1)
    short.motor_cmd = short.motor_cmd[:18]
    nan = arm_cmd(-0.1)
    nan.motor_cmd[9].q = math.nan
    beyond = arm_cmd(-0.1)
    beyond.motor_cmd[8].q = 3.0
    gains = arm_cmd(-0.1, kp=5000.0)
    sim = peer['sim']
    # The simulator's reader keeps Cyclone's default history (last sample only), so each
    # bad command is sent on its own and its log line awaited before the next.
    for bad, reason in [(short, 'motor_cmd has 18 entries, expected 19'),
                        (nan, 'motor_cmd[9] (wristYaw_Left).q is not finite'),
                        (beyond, 'motor_cmd[8] (elbow_Left).q=3 outside'),
                        (gains, 'motor_cmd[0] (waistRoll).kp=5000 outside')]:
        peer['cmd'].write(bad)
        assert sim.wait_for(reason, 10), sim.lines[-5:]
    time.sleep(0.3)
    peer['state'].take(N=1000)
    s = wait_sample(peer['state'])
    # The last good command (0.2) is still in force: none of the bad ones was applied.
    assert all(abs(m.q - 0.2) < 0.01 for m in s.motor_state[5:])


def test_handcmd_tracked_and_bad_handcmd_rejected(peer):
    target = [0, 100, 200, 300, 400, 500, 1000, 900, 800, 700, 600, 0]
    peer['handcmd'].write(HandCmd_(position=target))
    s = wait_sample(peer['hand'], lambda s: list(s.position) == target)
    assert s is not None
    peer['handcmd'].write(HandCmd_(position=[1001] * 12))
    assert peer['sim'].wait_for('rejected handcmd', 10)
    time.sleep(0.2)
    peer['hand'].take(N=1000)
    s = wait_sample(peer['hand'])
    assert list(s.position) == target


def test_clean_shutdown_reports_counters_and_trace(domain_id, tmp_path):
    trace = tmp_path / 'trace.csv'
    sim = SimProcess(domain_id, rate_hz=200,
                     extra_args=['--duration', '0.5', '--trace-file', str(trace)])
    try:
        assert sim.proc.wait(30) == 0
        line = sim.wait_for('stopped after', 5)
        assert line and 'stopped after 100 ticks' in line
    finally:
        result = sim.stop()
    assert (result.returncode, result.signal) == (0, None), sim.lines[-5:]   # by itself
    rows = trace.read_text().splitlines()
    assert rows[0] == 'tick,write_time_ns'
    ticks = [int(r.split(',')[0]) for r in rows[1:]]
    stamps = [int(r.split(',')[1]) for r in rows[1:]]
    assert ticks == list(range(1, 101)) and stamps == sorted(stamps)
