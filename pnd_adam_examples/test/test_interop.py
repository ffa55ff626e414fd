# SPDX-License-Identifier: Apache-2.0
"""
Interop of an rclpy process (rmw_fastrtps_cpp) with the plain-Cyclone simulator process.

Three processes: the simulator (vendor IDL, Cyclone defaults except the loopback network
config), ros_peer.py (rclpy with our pnd_adam classes) and this test, which is a second
plain-Cyclone peer with the same vendor IDL: it sees exactly what the simulator sent and
what the ROS side sent, so every field can be compared on both sides.
"""

import dataclasses
import glob
import json
import os
import signal
import sys
import time

from ament_index_python.packages import get_package_prefix
from cyclonedds.core import Policy, Qos
from cyclonedds.domain import DomainParticipant
from cyclonedds.sub import DataReader
from cyclonedds.topic import Topic
import numpy as np

from pnd_adam_examples.fastdds_profile import PROFILE_ENV, profile_path
from pnd_adam_sim.vendor_idl import (HandCmd_, HandState_, LowCmd_, LowState_, TOPIC_HANDCMD,
                                     TOPIC_HANDSTATE, TOPIC_LOWCMD, TOPIC_LOWSTATE)
import pytest
from workspace_testing import executable, start, stop
from workspace_testing.adam_sim import cyclone_localhost_uri, localhost_env, SimProcess

HERE = os.path.dirname(os.path.abspath(__file__))
PEER_SECONDS = 6.0
# Non-trivial values in every sensor field, so a swapped or shifted element shows up.
SIM_CONFIG = """
rate_hz: 500.0
model:
  imu_ypr: [0.3, -0.2, 0.1]
  imu_gyro_bias: [0.01, -0.02, 0.03]
  imu_temperature: -7
  wireless_remote: [%s]
""" % ', '.join(str(v) for v in range(-20, 20))


def fastdds_major():
    """3 on Kilted (Fast DDS 3.x), 2 on Jazzy (Fast DDS 2.14): the library beside the rmw."""
    lib = os.path.join(get_package_prefix('rmw_fastrtps_cpp'), 'lib')
    if glob.glob(os.path.join(lib, 'libfastdds.so.3*')):
        return 3
    if glob.glob(os.path.join(lib, 'libfastrtps.so.2*')):
        return 2
    raise RuntimeError(f'no Fast DDS library found in {lib}')


@pytest.fixture(scope='module')
def observer(domain_id):
    os.environ['CYCLONEDDS_URI'] = cyclone_localhost_uri()
    dp = DomainParticipant(domain_id)
    deep = Qos(Policy.History.KeepLast(5000))
    readers = {
        'lowstate': DataReader(dp, Topic(dp, TOPIC_LOWSTATE, LowState_), qos=deep),
        'handstate': DataReader(dp, Topic(dp, TOPIC_HANDSTATE, HandState_), qos=deep),
        'lowcmd': DataReader(dp, Topic(dp, TOPIC_LOWCMD, LowCmd_), qos=deep),
        'handcmd': DataReader(dp, Topic(dp, TOPIC_HANDCMD, HandCmd_), qos=deep),
    }
    yield readers
    del readers, dp


@pytest.fixture
def sim(domain_id, tmp_path, observer):
    cfg = tmp_path / 'sim.yaml'
    cfg.write_text(SIM_CONFIG)
    proc = SimProcess(domain_id, extra_args=['--config', str(cfg)])
    try:
        assert proc.wait_for('running:', 20), proc.lines
        for r in observer.values():
            r.take(N=100000)  # forget anything from a previous test's simulator
        yield proc
    finally:
        proc.stop()


def run_peer(domain_id, with_profile):
    env = localhost_env(domain_id)
    env['RMW_IMPLEMENTATION'] = 'rmw_fastrtps_cpp'
    env.pop(PROFILE_ENV, None)
    env.pop('FASTRTPS_DEFAULT_PROFILES_FILE', None)
    if with_profile:
        env[PROFILE_ENV] = profile_path()
    peer = start([sys.executable, os.path.join(HERE, 'ros_peer.py'), str(PEER_SECONDS)],
                 env=env, separate_stderr=True)
    try:
        peer.wait(PEER_SECONDS + 60)
    finally:
        result = stop(peer)
    assert (result.returncode, result.signal) == (0, None), peer.errors()[-2000:]
    return json.loads(result.output.strip().splitlines()[-1])


def f32(x):
    return float(np.float32(x))


def as_f32_tree(value):
    """Return the values a float32 wire field can carry (python floats rounded to float32)."""
    if isinstance(value, dict):
        return {k: as_f32_tree(v) for k, v in value.items()}
    if isinstance(value, list):
        return [as_f32_tree(v) for v in value]
    if isinstance(value, float):
        return f32(value)
    return value


def test_exchange_with_profile_every_field(domain_id, sim, observer):
    ros = run_peer(domain_id, with_profile=True)
    assert ros['lowstate_publishers'] >= 1 and ros['lowcmd_subscribers'] >= 1

    # LowState: what ROS decoded == what the vendor IDL decodes, sample by sample (by tick).
    cyc = {s.tick: dataclasses.asdict(s) for s in observer['lowstate'].take(N=100000)}
    assert ros['lowstate_count'] > 100
    matched = [m for m in ros['lowstate'] if m['tick'] in cyc]
    assert len(matched) > 50
    for m in matched:
        assert m == cyc[m['tick']]
    last = matched[-1]
    assert len(last['motor_state']) == 19 and len(last['wireless_remote']) == 40
    assert last['wireless_remote'] == list(range(-20, 20))
    assert last['imu_state']['temperature'] == -7
    assert last['imu_state']['gyroscope'] == [f32(0.01), f32(-0.02), f32(0.03)]
    assert last['battery_data']['status'] == 'OK' and last['battery_data']['wh_accumulated'] > 0

    # HandState: every sample ROS got was sent by the simulator; the hands reached the target.
    cyc_hands = {tuple(s.position) for s in observer['handstate'].take(N=100000)}
    assert ros['handstate_count'] > 100
    assert all(tuple(h['position']) in cyc_hands for h in ros['handstate'])
    assert ros['handstate'][-1]['position'] == ros['sent_handcmd']['position']

    # LowCmd / HandCmd: what ROS sent arrives field for field at a vendor-IDL reader.
    cmds = observer['lowcmd'].take(N=100000)
    assert cmds
    assert dataclasses.asdict(cmds[-1]) == as_f32_tree(ros['sent_lowcmd'])
    hands = observer['handcmd'].take(N=100000)
    assert hands and dataclasses.asdict(hands[-1]) == ros['sent_handcmd']

    # ... and the simulator applied it: mode_pr, enable bits, and the PD equilibrium
    # q = q_des + (tau + kd*dq_des)/kp that only holds if q, dq, tau, kp, kd all arrived.
    state = last
    assert state['mode_pr'] == 1
    assert [m['mode'] for m in state['motor_state']] == [1] * 19
    for i, (m, c) in enumerate(zip(state['motor_state'], ros['sent_lowcmd']['motor_cmd'])):
        expected = c['q'] + (c['tau'] + c['kd'] * c['dq']) / c['kp']
        assert m['q'] == pytest.approx(expected, abs=2e-3), i
    assert 'rejected' not in '\n'.join(sim.lines)


def test_exchange_without_profile_matches_documented_behaviour(domain_id, sim, observer):
    ros = run_peer(domain_id, with_profile=False)
    # Discovery works either way: the ROS side sees the simulator's endpoints.
    assert ros['lowstate_publishers'] >= 1 and ros['lowcmd_subscribers'] >= 1
    states = observer['lowstate'].take(N=100000)
    assert states  # the simulator was publishing all along
    if fastdds_major() >= 3:
        # Kilted: Cyclone rejects Fast DDS 3's TypeObjects; nothing flows either way.
        assert ros['lowstate_count'] == 0 and ros['handstate_count'] == 0
        assert observer['lowcmd'].take(N=100000) == []
        assert observer['handcmd'].take(N=100000) == []
        assert states[-1].mode_pr == 0 and all(m.mode == 0 for m in states[-1].motor_state)
    else:
        # Jazzy: Fast DDS 2.14 interoperates with defaults.
        assert ros['lowstate_count'] > 100 and ros['handstate_count'] > 100
        cmds = observer['lowcmd'].take(N=100000)
        assert cmds and dataclasses.asdict(cmds[-1]) == as_f32_tree(ros['sent_lowcmd'])
        assert states[-1].mode_pr == 1


def test_example_node_moves_arms_and_hands(domain_id, sim, observer):
    """
    The installed example moves the simulated arms and hands.

    The installed example, started with no profile in its environment: it must load the
    shipped one itself (on Kilted nothing would flow otherwise).
    """
    env = localhost_env(domain_id)
    env.pop(PROFILE_ENV, None)
    env['RMW_IMPLEMENTATION'] = 'rmw_fastrtps_cpp'
    exe = executable('pnd_adam_examples', 'adam_arm_pose')
    left = [-0.6, 0.4, 0.2, -1.1, 0.1, 0.2, -0.1]
    right = [-0.4, -0.5, -0.2, -0.9, -0.1, -0.2, 0.1]
    # hand_period 1.5 s: a full stroke takes 0.5 s of simulated time, so the hands close
    # even when a loaded host runs the simulator at a third of real time.
    node = start(
        [exe, '--ros-args', '-p', f'left_arm_pose:={left}', '-p', f'right_arm_pose:={right}',
         '-p', 'move_duration:=1.0', '-p', 'hand_period:=1.5', '-p', 'kp:=200.0',
         '-p', 'kd:=10.0'],
        env=env)
    try:
        goal = [0.0] * 5 + left + right
        reached = closed = None
        end = time.monotonic() + 30
        while time.monotonic() < end and not (
                reached and closed and 'pose reached' in node.output()):
            for s in observer['lowstate'].take(N=100000):
                if all(abs(m.q - g) < 0.01 for m, g in zip(s.motor_state, goal)):
                    reached = s
            for h in observer['handstate'].take(N=100000):
                if list(h.position) == [0] * 12:
                    closed = h
            time.sleep(0.05)
        assert reached is not None, 'arms never reached the pose'
        assert closed is not None, 'hands never closed'
        assert all(m.mode == 1 for m in reached.motor_state)
    finally:
        result = stop(node, timeout=20, first=signal.SIGTERM)
    log = result.output
    assert 'pose reached' in log, log[-2000:]
    assert (result.returncode, result.signal) == (0, signal.SIGTERM), log[-2000:]
    assert f'Fast DDS profile: {profile_path()}' in log
