# SPDX-License-Identifier: Apache-2.0
"""The Adam U facts against the spec (INTERFACES.md §3) and the vendor's gain file."""

from pnd_adam_description.gains import VENDOR_GAINS, vendor_gains
from pnd_adam_description.joints import (HAND_CLOSED, HAND_DOF, HAND_OPEN, JOINT_LIMITS,
                                         JOINT_NAMES, LEFT_ARM, NECK, NUM_JOINTS, RIGHT_ARM,
                                         WAIST)
import pytest

# INTERFACES.md §3: "Adam U has 19 actuators, in order: ..."
SPEC_ORDER = ['waistRoll', 'waistPitch', 'waistYaw', 'neckYaw', 'neckPitch'] + [
    f'{j}_{side}' for side in ('Left', 'Right') for j in (
        'shoulderPitch', 'shoulderRoll', 'shoulderYaw', 'elbow', 'wristYaw', 'wristPitch',
        'wristRoll')]


def test_joint_order_is_the_vendors():
    assert list(JOINT_NAMES) == SPEC_ORDER and NUM_JOINTS == 19
    assert WAIST + NECK + LEFT_ARM + RIGHT_ARM == tuple(range(NUM_JOINTS))
    assert [JOINT_NAMES[i] for i in WAIST] == ['waistRoll', 'waistPitch', 'waistYaw']
    assert all(JOINT_NAMES[i].endswith('_Left') for i in LEFT_ARM)
    assert all(JOINT_NAMES[i].endswith('_Right') for i in RIGHT_ARM)


def test_limits_contain_zero_and_are_positive():
    for lim in JOINT_LIMITS:
        assert lim.q_min < 0.0 < lim.q_max, lim.name
        assert lim.dq_max > 0.0 and lim.tau_max > 0.0, lim.name


def test_arm_limits_mirror_left_and_right():
    for left, right in zip(LEFT_ARM, RIGHT_ARM):
        a, b = JOINT_LIMITS[left], JOINT_LIMITS[right]
        assert a.name.replace('_Left', '_Right') == b.name
        assert (a.dq_max, a.tau_max) == (b.dq_max, b.tau_max)
        if 'Roll' in a.name and 'shoulder' in a.name:      # roll mirrors its sign
            assert (a.q_min, a.q_max) == (-b.q_max, -b.q_min)
        else:
            assert (a.q_min, a.q_max) == (b.q_min, b.q_max)


def test_hand_range():
    assert (HAND_DOF, HAND_CLOSED, HAND_OPEN) == (12, 0, 1000)


def test_vendor_gains_of_the_documented_joints():
    # Waist: joint_pd_config.json of pnd_adam_u_mujoco; no neck entries there.
    assert vendor_gains(['waistRoll', 'waistPitch', 'waistYaw']) == (
        [405.0, 405.0, 205.0], [6.1, 6.1, 4.1])
    assert vendor_gains(['shoulderPitch_Left', 'elbow_Right']) == ([18.0, 9.0], [0.9, 0.9])
    assert set(VENDOR_GAINS) == set(SPEC_ORDER) - {'neckYaw', 'neckPitch'}
    with pytest.raises(KeyError):
        vendor_gains(['neckYaw'])
