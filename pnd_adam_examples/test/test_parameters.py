# SPDX-License-Identifier: Apache-2.0
"""
adam_arm_pose's parameters: descriptors, start-up checks, run-time gains that take effect.

The node runs in this process (no simulator needed): its lowcmd publisher is replaced by a
list, so what a set changes is seen in the next command it would send.
"""
import os

from ament_index_python.packages import get_package_share_directory
from pnd_adam.msg import LowState, MotorState
from pnd_adam_description.gains import vendor_gains
from pnd_adam_description.joints import JOINT_NAMES, NUM_JOINTS, WAIST
from pnd_adam_examples.arm_pose import ArmPose, PARAMETERS
import pytest
import rclpy
from rclpy.parameter import Parameter
import yaml

SHARE = get_package_share_directory('pnd_adam_examples')


@pytest.fixture(scope='module')
def ros(domain_id):
    rclpy.init(domain_id=domain_id)
    yield
    rclpy.try_shutdown()


@pytest.fixture
def node(ros):
    n = ArmPose()
    sent = []
    n.cmd_pub.publish = sent.append
    n.sent = sent
    yield n
    n.destroy_node()


def next_command(node):
    if node.start is None:
        node.on_lowstate(LowState(motor_state=[MotorState() for _ in range(NUM_JOINTS)]))
    node.on_timer()
    return node.sent[-1]


def test_shipped_config_lists_every_parameter_with_its_default():
    with open(os.path.join(SHARE, 'config', 'arm_pose.yaml'), encoding='utf-8') as f:
        shipped = yaml.safe_load(f)['adam_arm_pose']['ros__parameters']
    assert shipped == {p.name: p.value_default() for p in PARAMETERS}


def test_descriptors(node):
    for p in PARAMETERS:
        d = node.describe_parameter(p.name)
        assert d.description == p.description and d.description
        assert d.read_only == p.read_only
    assert {p.name for p in PARAMETERS if not p.read_only} == {
        'kp', 'kd', 'waist_kp', 'waist_kd', 'hand_period'}
    kp = node.describe_parameter('kp')
    assert '[N*m/rad]' in kp.description
    assert (kp.floating_point_range[0].from_value, kp.floating_point_range[0].to_value) == (
        0.0, 1000.0)


def test_waist_gets_the_vendor_gains_and_arms_kp(node):
    cmd = next_command(node)
    kp_waist, kd_waist = vendor_gains([JOINT_NAMES[i] for i in WAIST])
    assert [cmd.motor_cmd[i].kp for i in WAIST] == pytest.approx(kp_waist)
    assert [cmd.motor_cmd[i].kd for i in WAIST] == pytest.approx(kd_waist)
    assert {cmd.motor_cmd[i].kp for i in range(NUM_JOINTS) if i not in WAIST} == {60.0}


def test_run_time_gain_set_takes_effect(node):
    result = node.set_parameters([Parameter('kp', value=80.0),
                                  Parameter('waist_kd', value=[5.0, 5.0, 3.0])])
    assert all(r.successful for r in result), result
    cmd = next_command(node)
    assert cmd.motor_cmd[JOINT_NAMES.index('elbow_Left')].kp == 80.0
    assert [cmd.motor_cmd[i].kd for i in WAIST] == [5.0, 5.0, 3.0]


def test_bad_run_time_sets_are_refused_and_change_nothing(node):
    for name, value, reason in (
            ('kp', 2000.0, 'out of range'),
            ('waist_kp', [405.0, 405.0], 'waist_kp needs 3 entries, got 2'),
            ('waist_kp', [405.0, -1.0, 205.0], "parameter 'waist_kp'[1]: -1.0 is outside"),
            ('command_rate', 50.0, 'read-only'),
            ('left_arm_pose', [0.0] * 7, 'read-only')):
        result = node.set_parameters([Parameter(name, value=value)])[0]
        assert not result.successful and reason in result.reason, (name, result.reason)
    cmd = next_command(node)
    assert cmd.motor_cmd[JOINT_NAMES.index('elbow_Left')].kp == 60.0
    assert node.get_parameter('command_rate').value == 200.0


@pytest.mark.parametrize('overrides, message', [
    ({'left_arm_pose': [0.0] * 6}, "parameter 'left_arm_pose': needs 7 values, got 6"),
    ({'right_arm_pose': [9.0] + [0.0] * 6},
     "parameter 'right_arm_pose': shoulderPitch_Right target 9.0 outside"),
    ({'kd': -1.0}, "parameter 'kd': "),
    ({'waist_kp': [1.0]}, 'waist_kp needs 3 entries, got 1'),
    ({'command_rate': 0.0}, "parameter 'command_rate': must be > 0"),
    ({'move_duration': 3}, "parameter 'move_duration': wrong type"),
])
def test_bad_start_up_values_are_one_line_errors(ros, overrides, message):
    with pytest.raises(ValueError) as exc:
        ArmPose(parameter_overrides=[Parameter(n, value=v) for n, v in overrides.items()])
    assert str(exc.value).startswith(message) and '\n' not in str(exc.value), str(exc.value)
