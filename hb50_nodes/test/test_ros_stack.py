# SPDX-License-Identifier: Apache-2.0
"""
Behaviour of the running stack over DDS.

For the three separate executables and for the composed hb50_stack (same checks: they must
behave the same). No wall-clock budgets: waits have generous timeouts and assertions are
about what the stack does.
"""

import math
import statistics
import time

from hb50_nodes import levels
from hb50_nodes.control_core import ControlConfig, ControlCore, MODE_LOCOMOTION, MODE_STAND
from hb50_nodes.kinematics import LegGeometry
from hb50_nodes.layout import JOINT_NAMES
import numpy as np
import pytest
from rclpy.qos import DurabilityPolicy, ReliabilityPolicy
import rosharness as rh

STAND = ControlCore(ControlConfig(), LegGeometry()).stand_pose()
SEPARATE = ('bridge_node', 'control_node', 'heartbeat_monitor')


@pytest.fixture(scope='module', params=['separate', 'composed'])
def stack(request, domain_id):
    if request.param == 'separate':
        procs = {name: rh.start(name) for name in SEPARATE}
    else:
        procs = {'hb50_stack': rh.start('hb50_stack')}
    probe = rh.Probe()
    stack = {'mode': request.param, 'procs': procs, 'probe': probe}
    try:
        # Standing up is part of the contract: wait for it once for the whole module.
        rh.wait_for(lambda: _standing(probe), 30.0)
        yield stack
    finally:
        probe.close()
        for proc in stack['procs'].values():
            rh.stop(proc)


def _positions(probe):
    msg = probe.latest(probe.topics.BRIDGE_DATA)
    return None if msg is None else np.asarray(msg.joint_position, dtype=float)


def _standing(probe, tol=0.05):
    q = _positions(probe)
    state = probe.latest(probe.topics.ROBOT_STATE)
    return (q is not None and state is not None and np.max(np.abs(q - STAND)) < tol
            and state.motion_mode[0] == MODE_STAND)


def _command(source, t_pos, **overrides):
    from hb50_commons.msg import JointCommand
    msg = JointCommand(source_node=source, name=list(JOINT_NAMES), kp=[60.0] * 12,
                       ki=[0.0] * 12, kd=[2.0] * 12, t_pos=[float(v) for v in t_pos],
                       t_vel=[0.0] * 12, t_trq=[0.0] * 12, brake=[False] * 12)
    for key, value in overrides.items():
        setattr(msg, key, value)
    return msg


def _publish_for(probe, msg, seconds, rate=50.0):
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        probe.cmd_pub.publish(msg)
        time.sleep(1.0 / rate)


def test_stands_up_and_holds_the_stand_pose(stack):
    probe = stack['probe']
    assert _standing(probe), _positions(probe)
    state = probe.latest(probe.topics.ROBOT_STATE)
    assert [leg.leg_name for leg in state.leg] == ['FR', 'FL', 'RL', 'RR']
    assert all(leg.contact for leg in state.leg)
    assert abs(state.pose.position.z - 0.28) < 0.03
    bridge_state = probe.latest(probe.topics.BRIDGE_STATE)
    assert bridge_state.drives_enabled


def test_publisher_qos_equals_spec(stack):
    probe = stack['probe']
    node = probe.node
    t = probe.topics

    def names_known():
        # rmw_fastrtps learns an endpoint's node name from the participant's discovery info,
        # which can come after the endpoint itself ('_NODE_NAME_UNKNOWN_' meanwhile).
        infos = [i for topic in t.TOPICS for i in node.get_publishers_info_by_topic(
            '/hb50/' + topic)]
        heartbeat = {i.node_name for i in node.get_publishers_info_by_topic('/hb50/heartbeat')}
        return (infos and all(not i.node_name.startswith('_') for i in infos)
                and heartbeat >= {'bridge_node', 'control_node', 'heartbeat_monitor'})
    assert rh.wait_for(names_known, 10.0)
    expected_node = {t.BRIDGE_DATA: 'bridge_node', t.BRIDGE_STATE: 'bridge_node',
                     t.BRIDGE_STATE_10HZ: 'bridge_node', t.ROBOT_STATE: 'control_node',
                     t.ROBOT_STATE_10HZ: 'control_node', t.JOINT_COMMAND: 'control_node'}
    for topic, (type_name, profile, _) in t.TOPICS.items():
        if topic == t.VELOCITY_COMMAND:
            continue
        # The default namespace: users see the vendor's names, /hb50/bridge_data etc.
        infos = [i for i in node.get_publishers_info_by_topic('/hb50/' + topic)
                 if i.node_name != node.get_name()]
        assert infos, topic
        want = probe.qos.PROFILES[profile]
        for info in infos:
            assert info.topic_type == type_name
            assert info.node_namespace == '/hb50', (topic, info.node_name)
            # DDS discovery carries reliability and durability; history/depth are not
            # propagated (reported UNKNOWN/0): test_params checks those in the profiles.
            assert info.qos_profile.reliability == want.reliability, (topic, info.node_name)
            assert info.qos_profile.durability == want.durability == DurabilityPolicy.VOLATILE
        if topic in expected_node:
            assert {i.node_name for i in infos} == {expected_node[topic]}
    heartbeat_nodes = {i.node_name for i in node.get_publishers_info_by_topic(
        '/hb50/heartbeat')}
    assert heartbeat_nodes >= {'bridge_node', 'control_node', 'heartbeat_monitor'}
    sub = [i for i in node.get_subscriptions_info_by_topic('/hb50/joint_command')
           if i.node_name == 'bridge_node']
    assert sub and sub[0].qos_profile.reliability == ReliabilityPolicy.BEST_EFFORT


def test_rates_500hz_steady_and_10hz_slow(stack):
    probe = stack['probe']
    t0 = time.monotonic()
    time.sleep(2.0)
    q = probe.topics
    fast = {t: probe.since(t, t0) for t in (q.BRIDGE_DATA, q.BRIDGE_STATE, q.ROBOT_STATE,
                                            q.JOINT_COMMAND)}
    slow = {t: probe.since(t, t0) for t in (q.BRIDGE_STATE_10HZ, q.ROBOT_STATE_10HZ)}
    n_slow = max(len(v) for v in slow.values())
    assert all(len(v) >= 1 for v in slow.values())
    for topic, msgs in fast.items():
        # The 500 Hz topics deliver far more than the 10 Hz ones over the same window.
        assert len(msgs) > 10 * n_slow, topic
    for topic in (q.BRIDGE_DATA, q.ROBOT_STATE, q.JOINT_COMMAND):
        stamps = [m.header.stamp.sec + m.header.stamp.nanosec * 1e-9 for m in fast[topic]]
        periods = np.diff(stamps)
        # Publisher period: typically 2 ms, and no long hole in the stream.
        assert 0.0015 < statistics.median(periods) < 0.0025, topic
        assert periods.max() < 0.25, topic
    slow_stamps = [m.header.stamp.sec + m.header.stamp.nanosec * 1e-9
                   for m in slow[q.ROBOT_STATE_10HZ]]
    if len(slow_stamps) > 2:
        assert statistics.median(np.diff(slow_stamps)) > 0.05


def test_every_node_sends_ok_heartbeats(stack):
    probe = stack['probe']
    t0 = time.monotonic()
    names = ('bridge_node', 'control_node', 'heartbeat_monitor')
    rh.wait_for(lambda: all(sum(m.reporting_node == n for m in probe.since(
        probe.topics.HEARTBEAT, t0)) >= 2 for n in names), 5.0)
    beats = probe.since(probe.topics.HEARTBEAT, t0)
    for name in names:
        mine = [m for m in beats if m.reporting_node == name]
        assert len(mine) >= 2, name
        assert all(m.level[0] == levels.OK for m in mine)


def test_invalid_commands_are_rejected_reported_and_never_applied(stack):
    probe = stack['probe']
    far = [0.0] * 12       # a pose far from standing: applying it would be visible
    bad = {
        'name has 11 entries': _command('bad_ctrl', far, name=list(JOINT_NAMES[:11])),
        'kd has 13 entries': _command('bad_ctrl', far, kd=[2.0] * 13),
        "name[0] is 'fl_j0'": _command('bad_ctrl', far, name=list(JOINT_NAMES[3:]) +
                                       list(JOINT_NAMES[:3])),
        't_pos[4] is not finite': _command('bad_ctrl', far[:4] + [math.nan] + far[5:]),
        't_trq[0] is not finite': _command('bad_ctrl', far, t_trq=[math.inf] + [0.0] * 11),
        'kp[2]=900 out of range': _command('bad_ctrl', far, kp=[60.0] * 2 + [900.0] +
                                           [60.0] * 9),
        'kd[0]=-1 out of range': _command('bad_ctrl', far, kd=[-1.0] + [2.0] * 11),
    }
    t0 = time.monotonic()
    for msg in bad.values():
        # 50 Hz: a valid command at this rate would take priority over control_node.
        _publish_for(probe, msg, 0.4)
    rh.wait_for(lambda: all(probe.statuses(t0, levels.ERROR, r) for r in bad), 5.0)
    for reason in bad:
        errors = probe.statuses(t0, levels.ERROR, reason)
        assert errors, reason
        assert errors[0].reporting_node == 'bridge_node' and 'bad_ctrl' in errors[0].status
    assert not probe.statuses(t0, text='-> bad_ctrl')
    # Never applied: the robot kept standing the whole time.
    for msg in probe.since(probe.topics.BRIDGE_DATA, t0):
        assert np.max(np.abs(np.asarray(msg.joint_position) - STAND)) < 0.1
    assert 'rejected commands' in ' '.join(probe.latest(probe.topics.BRIDGE_STATE).status)


def test_custom_source_takes_priority_and_control_resumes(stack):
    probe = stack['probe']
    # Start from the symmetric stand: the body weight is shared by the feet in contact, so a
    # crouch begun from an asymmetric pose (e.g. mid-step) can settle on two loaded feet that
    # sag further than the four-foot crouch this test expects.
    assert rh.wait_for(lambda: _standing(probe), 15.0)
    crouch = STAND.copy()
    crouch[1::3] += 0.25
    crouch[2::3] -= 0.5
    t0 = time.monotonic()
    # Stiff gains: with the body weight on the feet, the default kp=60 leaves a steady-state
    # knee error of ~0.12 rad (load / kp), which would blur "did the crouch apply" with
    # "how stiff is the crouch".
    msg = _command('my_ctrl', crouch, kp=[200.0] * 12, kd=[4.0] * 12)
    _publish_for(probe, msg, 0.3)
    assert rh.wait_for(lambda: probe.statuses(t0, levels.WARN, 'control_node -> my_ctrl'), 5.0)
    # Publish at least once more after that wait (a loaded host can make it longer than the
    # arbitration gap, and the switch back would then come before t1), and take t1 right
    # after the last command: the switch back is at least a gap after it was applied.
    end = time.monotonic() + 10.0
    while True:
        _publish_for(probe, msg, 0.1)
        t1 = time.time()    # wall clock: compared with the events' stamps
        if time.monotonic() > end or np.max(np.abs(_positions(probe) - crouch)) < 0.1:
            break
    assert np.max(np.abs(_positions(probe) - crouch)) < 0.1
    # Stop publishing: control_node takes over again and stands the robot back up smoothly.
    assert rh.wait_for(
        lambda: probe.events_stamped_since(t1, levels.WARN, 'my_ctrl -> control_node'), 10.0)
    assert rh.wait_for(lambda: _standing(probe), 15.0)
    assert not probe.events_stamped_since(t1, levels.WARN, 'safe damping')


def test_velocity_command_is_clamped_scaled_and_followed(stack):
    from geometry_msgs.msg import Twist
    probe = stack['probe']
    speed = ControlConfig().cmd_vel_lin

    def mean_vx(window=0.6):
        t = time.monotonic() - window
        vs = [m.body_vel.linear.x for m in probe.since(probe.topics.ROBOT_STATE, t)]
        return statistics.mean(vs) if vs else float('nan')

    def drive(linear_x, check, timeout=12.0):
        twist = Twist()
        twist.linear.x = linear_x
        end = time.monotonic() + timeout
        while time.monotonic() < end:
            probe.twist_pub.publish(twist)
            time.sleep(0.05)
            if check():
                return True
        return False

    # 4.0 is clamped to 1.0 and scaled by cmd_vel_lin (0.5 m/s).
    assert drive(4.0, lambda: abs(mean_vx() - speed) < 0.1), mean_vx()
    state = probe.latest(probe.topics.ROBOT_STATE)
    assert state.motion_mode[0] == MODE_LOCOMOTION
    assert state.motion_gait[0] in (2, 3) and state.motion_type[0] == 1
    assert drive(-0.4, lambda: abs(mean_vx() + 0.4 * speed) < 0.08), mean_vx()
    # No more commands: the robot stops and stands.
    assert rh.wait_for(lambda: _standing(probe), 15.0)
