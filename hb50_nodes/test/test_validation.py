import math

import numpy as np
import pytest
from conftest import command

from hb50_nodes.layout import JOINT_NAMES
from hb50_nodes.validation import damping_command, GainLimits, InvalidCommand, validate

LIMITS = GainLimits()


def test_valid_command_is_converted_whole():
    cmd = validate(command(t_pos=[0.5] * 12, brake=[True] + [False] * 11), JOINT_NAMES, LIMITS)
    assert cmd.source == 'control_node'
    np.testing.assert_array_equal(cmd.t_pos, np.full(12, 0.5))
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
])
def test_every_kind_of_bad_command_is_rejected_with_its_reason(overrides, reason):
    with pytest.raises(InvalidCommand, match=None) as info:
        validate(command(**overrides), JOINT_NAMES, LIMITS)
    assert reason in str(info.value)


def test_damping_command_has_no_stiffness_and_no_torque():
    cmd = damping_command(12, 1.5)
    assert not cmd.kp.any() and not cmd.t_trq.any() and np.all(cmd.kd == 1.5)
