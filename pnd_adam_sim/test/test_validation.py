# SPDX-License-Identifier: Apache-2.0
import math

from pnd_adam_description.joints import JOINT_LIMITS, JOINT_NAMES, KD_MAX, KP_MAX, NUM_JOINTS
from pnd_adam_sim.model import AdamModel
from pnd_adam_sim.validation import CommandRejected, validate_handcmd, validate_lowcmd
from pnd_adam_sim.vendor_idl import HandCmd_, LowCmd_, MotorCmd_
import pytest


def good_cmd(**over):
    cmds = [MotorCmd_(mode=1, q=0.1, kp=50.0, kd=2.0) for _ in range(NUM_JOINTS)]
    return LowCmd_(mode_pr=0, motor_cmd=cmds, **over)


def test_joint_order_is_vendor_order():
    assert NUM_JOINTS == 19
    assert JOINT_NAMES[:5] == ('waistRoll', 'waistPitch', 'waistYaw', 'neckYaw', 'neckPitch')
    assert JOINT_NAMES[5] == 'shoulderPitch_Left' and JOINT_NAMES[11] == 'wristRoll_Left'
    assert JOINT_NAMES[12] == 'shoulderPitch_Right' and JOINT_NAMES[18] == 'wristRoll_Right'
    # A disabled joint's zero command must always be legal.
    assert all(j.q_min <= 0.0 <= j.q_max for j in JOINT_LIMITS)


def test_good_command_passes():
    validate_lowcmd(good_cmd())
    validate_lowcmd(LowCmd_(motor_cmd=[MotorCmd_() for _ in range(NUM_JOINTS)]))
    validate_handcmd(HandCmd_(position=[0] * 6 + [1000] * 6))


def test_limit_values_sent_as_float32_pass():
    import struct
    cmd = good_cmd()
    for m, lim in zip(cmd.motor_cmd, JOINT_LIMITS):
        m.q = struct.unpack('f', struct.pack('f', lim.q_max))[0]
    validate_lowcmd(cmd)


@pytest.mark.parametrize('mutate, reason', [
    (lambda c: c.motor_cmd.pop(), 'motor_cmd has 18 entries, expected 19'),
    (lambda c: c.motor_cmd.append(MotorCmd_()), 'motor_cmd has 20 entries'),
    (lambda c: setattr(c.motor_cmd[3], 'q', math.nan), 'motor_cmd[3] (neckYaw).q is not finite'),
    (lambda c: setattr(c.motor_cmd[4], 'tau', math.inf), 'tau is not finite'),
    (lambda c: setattr(c.motor_cmd[6], 'dq', -math.inf), 'dq is not finite'),
    (lambda c: setattr(c.motor_cmd[7], 'ki', math.nan), 'ki is not finite'),
    (lambda c: setattr(c.motor_cmd[0], 'kp', KP_MAX + 1), 'motor_cmd[0] (waistRoll).kp='),
    (lambda c: setattr(c.motor_cmd[1], 'kp', -1.0), '.kp=-1 outside'),
    (lambda c: setattr(c.motor_cmd[2], 'kd', KD_MAX * 2), '.kd=200 outside'),
    (lambda c: setattr(c.motor_cmd[8], 'q', 2.0), 'motor_cmd[8] (elbow_Left).q=2 outside'),
    (lambda c: setattr(c.motor_cmd[18], 'q', -1.0), '(wristRoll_Right).q=-1 outside'),
    (lambda c: setattr(c.motor_cmd[5], 'tau', 1000.0), '.tau=1000 outside'),
    (lambda c: setattr(c.motor_cmd[5], 'mode', 2), 'mode=2 is not 0'),
    (lambda c: setattr(c, 'mode_pr', 7), 'mode_pr=7'),
])
def test_bad_lowcmd_rejected_and_not_applied(mutate, reason):
    model = AdamModel()
    model.apply_lowcmd(good_cmd())
    before = (model.enabled.copy(), model.q_des.copy(), model.kp.copy(), model.kd.copy())
    bad = good_cmd()
    for m in bad.motor_cmd:
        m.q, m.kp = 0.05, 10.0  # differs from the applied command everywhere
    mutate(bad)
    with pytest.raises(CommandRejected, match=reason.replace('(', r'\(').replace(')', r'\)')
                       .replace('[', r'\[').replace(']', r'\]').replace('.', r'\.')):
        model.apply_lowcmd(bad)
    after = (model.enabled, model.q_des, model.kp, model.kd)
    assert all((a == b).all() for a, b in zip(before, after))
    assert model.lowcmd_applied == 1


def test_bad_handcmd_rejected_and_not_applied():
    model = AdamModel()
    model.apply_handcmd(HandCmd_(position=[500] * 12))
    with pytest.raises(CommandRejected, match=r'position\[11\]=1001 outside \[0, 1000\]'):
        model.apply_handcmd(HandCmd_(position=[0] * 11 + [1001]))
    with pytest.raises(CommandRejected, match='position has 11 entries'):
        model.apply_handcmd(HandCmd_(position=[0] * 11))
    assert list(model.hand_target) == [500] * 12
