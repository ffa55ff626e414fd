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


def test_law_since_tells_only_changes():
    t = targets()
    key, kp, kd, *_, timed_out = t.law_since(0.0, None)
    assert timed_out and not kp.any()
    assert t.law_since(0.2, key) is None             # nothing new: nothing copied
    t.apply(t.check(cmd(waistYaw={'position': 0.5, 'stiffness': 200.0})), 0.2)
    law = t.law_since(0.3, key)
    assert law is not None and law[1][JOINT_NAMES.index('waistYaw')] == 200.0
    key = law[0]
    assert t.law_since(0.6, key) is None
    timed_out_law = t.law_since(0.75, key)           # 0.5 s after the command: damping
    assert timed_out_law[-1] is True and not timed_out_law[1].any()
    t.apply(t.check(cmd(waistYaw={'position': 0.1, 'stiffness': 50.0})), 0.8)
    assert t.law_since(0.8, timed_out_law[0])[1][JOINT_NAMES.index('waistYaw')] == 50.0


def test_state_batch_follows_the_physics(tmp_path):
    import threading
    from aimrt_mujoco_sim.sim import AimrtMujocoSim
    from aimrt_protocols_py.messages import ImuState, JointState, TouchState
    from workspace_testing import free_port
    cfg = tmp_path / 'sim.yaml'
    cfg.write_text(f'listen_port: {free_port()}\n')
    sim = AimrtMujocoSim(load_config(str(cfg)), threading.Event())
    try:
        batches = []
        for stamp in (1, 2):
            for _ in range(50):   # the floating base settles on its pads
                sim.tick()
            batches.append([body for *_, body, _ in sim.state_batch(stamp)])
            decoded = [cls.FromString(body) for cls, body in
                       zip((JointState, ImuState, TouchState), batches[-1])]
            js, imu, touch = decoded
            assert [j.position for j in js.joints] == sim.physics.q.tolist()
            assert [j.effort for j in js.joints] == sim.physics.tau.tolist()
            assert imu.orientation.w == sim.physics.imu()[0][0]
            assert [s.pressure[0] for s in touch.states] == \
                [round(f) for f in sim.physics.foot_forces()]
            assert all(m.header.time_stamp == stamp for m in decoded)
            assert js.joints[0].name == JOINT_NAMES[0] and len(touch.names) == 4
        assert batches[0] != batches[1]       # kept messages carry the new values
    finally:
        sim.server.stop()
