# SPDX-License-Identifier: Apache-2.0
"""validation.validate: what is rejected, with which reason, and the limits."""

import math

from conftest import command
from hb50_nodes.layout import JOINT_NAMES
from hb50_nodes.validation import damping_command, GainLimits, InvalidCommand, validate
import numpy as np
import pytest

LIMITS = GainLimits()


def test_valid_command_is_converted_whole():
    pose = [0.1, 0.8, -1.6] * 4
    cmd = validate(command(t_pos=pose, brake=[True] + [False] * 11), JOINT_NAMES, LIMITS)
    assert cmd.source == 'control_node'
    np.testing.assert_array_equal(cmd.t_pos, np.array(pose))
    assert cmd.brake[0] and not cmd.brake[1:].any()


@pytest.mark.parametrize('overrides, reason', [
    ({'source_node': ''}, 'empty source_node'),
    ({'name': list(JOINT_NAMES[:11])}, 'name has 11 entries'),
    ({'kp': [20.0] * 13}, 'kp has 13 entries'),
    ({'brake': [False] * 11}, 'brake has 11 entries'),
    ({'t_trq': []}, 't_trq has 0 entries'),
    ({'name': list(JOINT_NAMES[1:]) + ['fr_j0']}, "name[0] is 'fr_j1'"),
    ({'name': list(JOINT_NAMES[:-1]) + ['xx_j2']}, "name[11] is 'xx_j2'"),
    ({'t_pos': [0.0] * 5 + [math.nan] + [0.0] * 6}, 't_pos[5] is not finite'),
    ({'t_vel': [math.inf] + [0.0] * 11}, 't_vel[0] is not finite'),
    ({'kd': [1.0] * 11 + [-math.inf]}, 'kd[11] is not finite'),
    ({'kp': [20.0] * 3 + [501.0] + [20.0] * 8}, 'kp[3]=501 out of range'),
    ({'kp': [-1.0] + [20.0] * 11}, 'kp[0]=-1 out of range'),
    ({'kd': [1.0] * 7 + [10.5] + [1.0] * 4}, 'kd[7]=10.5 out of range'),
    ({'ki': [0.1] + [0.0] * 11}, 'ki[0]=0.1 out of range'),
    # Finite but outside the joint limits (hb50.yaml: position_min/max per joint of a leg,
    # velocity_limit, effort_limit).
    ({'t_pos': [1e30] + [0.0] * 11}, 't_pos[0]=1e+30 out of range [-1, 1]'),
    ({'t_pos': [0.0] * 4 + [-2.5] + [0.0] * 7}, 't_pos[4]=-2.5 out of range [-2, 3]'),
    ({'t_pos': [0.0] * 11 + [0.6]}, 't_pos[11]=0.6 out of range [-3, 0.5]'),
    ({'t_vel': [0.0] * 2 + [-20.5] + [0.0] * 9}, 't_vel[2]=-20.5 out of range [-20, 20]'),
    ({'t_trq': [0.0] * 9 + [24.01] + [0.0] * 2}, 't_trq[9]=24.01 out of range [-24, 24]'),
    ({'t_trq': [-1e30] * 12}, 't_trq[0]=-1e+30 out of range'),
    ({'source_node': 'x' * 256}, 'source_node has 256 characters, more than 255'),
])
def test_every_kind_of_bad_command_is_rejected_with_its_reason(overrides, reason):
    with pytest.raises(InvalidCommand, match=None) as info:
        validate(command(**overrides), JOINT_NAMES, LIMITS)
    assert reason in str(info.value)


def test_targets_on_the_limits_are_valid():
    low, high = LIMITS.position_min * 4, LIMITS.position_max * 4
    for pose in (low, high):
        cmd = validate(command(t_pos=list(pose), t_vel=[20.0] * 6 + [-20.0] * 6,
                               t_trq=[-24.0] * 6 + [24.0] * 6), JOINT_NAMES, LIMITS)
        np.testing.assert_array_equal(cmd.t_pos, np.array(pose))


def test_custom_limits_apply_per_joint_of_every_leg():
    limits = GainLimits(position_min=(-0.1, -0.2, -0.3), position_max=(0.1, 0.2, 0.3),
                        velocity_limit=1.0, effort_limit=2.0)
    validate(command(t_pos=[0.1, -0.2, 0.3] * 4), JOINT_NAMES, limits)
    with pytest.raises(InvalidCommand, match=r't_pos\[8\]=0.31 out of range \[-0.3, 0.3\]'):
        validate(command(t_pos=[0.0] * 8 + [0.31] + [0.0] * 3), JOINT_NAMES, limits)
    with pytest.raises(InvalidCommand, match=r't_vel\[0\]=1.5'):
        validate(command(t_vel=[1.5] + [0.0] * 11), JOINT_NAMES, limits)
    with pytest.raises(InvalidCommand, match=r't_trq\[1\]=-3'):
        validate(command(t_trq=[0.0, -3.0] + [0.0] * 10), JOINT_NAMES, limits)


def test_untrusted_text_in_a_reason_is_clipped():
    long_name = 'n' * 100_000
    with pytest.raises(InvalidCommand) as info:
        validate(command(name=[long_name] + list(JOINT_NAMES[1:])), JOINT_NAMES, LIMITS)
    assert len(str(info.value)) < 200 and '100000 chars' in str(info.value)


def test_damping_command_has_no_stiffness_and_no_torque():
    cmd = damping_command(12, 1.5)
    assert not cmd.kp.any() and not cmd.t_trq.any() and np.all(cmd.kd == 1.5)
