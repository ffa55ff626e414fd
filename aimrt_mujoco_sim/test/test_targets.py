# SPDX-License-Identifier: Apache-2.0
"""Command checking, by-name application, timeout and configuration (no processes)."""

from aimrt_mujoco_sim.sim import CommandError, JointTargets, load_config
from aimrt_protocols_py.messages import JointCommand
import numpy as np
from pnd_adam_description.joints import JOINT_LIMITS, JOINT_NAMES
import pytest


def targets():
    return JointTargets(JOINT_LIMITS, command_timeout=0.5, damping_kd=1.0)


def cmd(**joints):
    msg = JointCommand()
    for name, fields in joints.items():
        msg.joints.add(name=name, **fields)
    return msg


def test_applied_by_name_others_keep_their_command():
    t = targets()
    kp, kd, q, dq, tau, timed_out = t.law(0.0)
    assert timed_out and not kp.any() and np.all(kd == 1.0)  # damping before any command
    t.apply(t.check(cmd(waistYaw={'position': 0.5, 'stiffness': 200.0, 'damping': 10.0})), 0.0)
    kp, kd, q, dq, tau, timed_out = t.law(0.1)
    yaw = JOINT_NAMES.index('waistYaw')
    assert not timed_out and kp[yaw] == 200.0 and q[yaw] == 0.5 and kd[yaw] == 10.0
    others = [i for i in range(len(JOINT_NAMES)) if i != yaw]
    assert not kp[others].any() and np.all(kd[others] == 1.0)  # never named: damping
    t.apply(t.check(cmd(elbow_Left={'position': -1.0, 'stiffness': 60.0, 'damping': 3.0})),
            0.2)
    kp, kd, q, *_ = t.law(0.3)
    assert kp[yaw] == 200.0 and q[JOINT_NAMES.index('elbow_Left')] == -1.0
    assert t.law(0.7)[5] is False and t.law(0.71)[5] is True  # 0.5 s after the last one


@pytest.mark.parametrize('bad, reason', [
    (cmd(), 'no joints'),
    (cmd(knee_Left={}), 'unknown joint'),
    (cmd(elbow_Left={'position': 3.0}), 'outside'),
    (cmd(waistYaw={'position': float('inf')}), 'non-finite'),
    (cmd(waistYaw={'velocity': 100.0}), 'beyond'),
    (cmd(neckYaw={'effort': 11.0}), 'beyond'),
    (cmd(waistYaw={'stiffness': 1001.0}), 'stiffness'),
    (cmd(waistYaw={'damping': -1.0}), 'stiffness'),
])
def test_bad_commands_rejected_whole(bad, reason):
    t = targets()
    good = {'position': 0.2, 'stiffness': 50.0}
    if bad.joints:
        bad.joints.add(name='waistRoll', **good)  # a valid entry beside the bad one
    with pytest.raises(CommandError, match=reason):
        t.check(bad)
    assert t.accepted == 0 and not t.kp.any()


def test_repeated_joint_rejected():
    msg = JointCommand()
    msg.joints.add(name='waistYaw')
    msg.joints.add(name='waistYaw')
    with pytest.raises(CommandError, match='twice'):
        targets().check(msg)


def test_config(tmp_path):
    cfg = load_config()
    assert (cfg.listen_port, cfg.state_addresses, cfg.rate_hz) == (50081, ['127.0.0.1:50080'],
                                                                   500.0)
    p = tmp_path / 'c.yaml'
    for text, match in [('rate: 1\n', 'unknown keys'), ('serialization: xml\n', 'pb'),
                        ('base: wheels\n', 'base'), ('publish_rate_hz: 1000\n', 'publish'),
                        ('command_timeout: 0\n', 'command_timeout')]:
        p.write_text(text)
        with pytest.raises(ValueError, match=match):
            load_config(str(p))
