# SPDX-License-Identifier: Apache-2.0
"""The MuJoCo engine of the Adam U model: gravity, base modes, command timeout, IMU."""

import math
import os

import numpy as np
from pnd_adam_description.gains import vendor_gains
from pnd_adam_description.joints import (JOINT_LIMITS, JOINT_NAMES, LEFT_ARM, NUM_JOINTS,
                                         RIGHT_ARM, WAIST)
from pnd_adam_description.mujoco_model import build_model, MujocoPhysics
from pnd_adam_sim.model import AdamModel, GRAVITY, ModelConfig
from pnd_adam_sim.vendor_idl import LowCmd_, MotorCmd_
import pytest
import yaml

DT = 0.002  # the simulator's default loop period (500 Hz)
# The example node's parameters, read from its shipped file in this workspace's source tree
# (pnd_adam_examples depends on pnd_adam_sim, so it cannot be a dependency here).
EXAMPLE_CONFIG = os.path.join(os.path.dirname(__file__), '..', '..', 'pnd_adam_examples',
                              'config', 'arm_pose.yaml')
# The vendor's own waist gains (pnd_adam_description.gains): the torso is an inverted
# pendulum of ~23 kg whose gravity stiffness (~50 N*m/rad) is close to kp=60.
WAIST_NAMES = [JOINT_NAMES[i] for i in WAIST]
VENDOR_WAIST_KP, VENDOR_WAIST_KD = vendor_gains(WAIST_NAMES)


def example_params():
    assert os.path.isfile(EXAMPLE_CONFIG), EXAMPLE_CONFIG
    with open(EXAMPLE_CONFIG, encoding='utf-8') as f:
        return yaml.safe_load(f)['adam_arm_pose']['ros__parameters']


def mujoco_model(**kw):
    return AdamModel(ModelConfig(physics_engine='mujoco', **kw), timestep=DT)


def lowcmd(q, kp, kd):
    return LowCmd_(motor_cmd=[MotorCmd_(mode=1, q=float(q[i]), kp=float(kp[i]),
                                        kd=float(kd[i])) for i in range(NUM_JOINTS)])


def example_goal_and_gains(uniform=False):
    """Return the example's pose and gains (uniform=True: its arm kp/kd on the waist too)."""
    p = example_params()
    goal = np.zeros(NUM_JOINTS)
    goal[list(LEFT_ARM)] = p['left_arm_pose']
    goal[list(RIGHT_ARM)] = p['right_arm_pose']
    kp = np.full(NUM_JOINTS, float(p['kp']))
    kd = np.full(NUM_JOINTS, float(p['kd']))
    if not uniform:
        kp[list(WAIST)], kd[list(WAIST)] = p['waist_kp'], p['waist_kd']
    return goal, kp, kd, float(p['command_rate'])


def drive(model, cmd, seconds, command_rate):
    """Step the model, sending cmd at command_rate like the example node; return dq history."""
    every = max(1, round(1.0 / (command_rate * DT)))
    for i in range(round(seconds / DT)):
        if i % every == 0:
            model.apply_lowcmd(cmd)
        model.step(DT)


def test_model_has_the_joint_table_and_gravity():
    m = build_model(DT)
    assert m.nu == NUM_JOINTS and m.opt.timestep == DT
    assert tuple(m.joint(i).name for i in range(m.njnt)) == JOINT_NAMES  # fixed base
    for lim in JOINT_LIMITS:
        j = m.joint(lim.name)
        assert list(j.range) == pytest.approx([lim.q_min, lim.q_max])
        a = m.actuator(lim.name)
        assert list(a.forcerange) == pytest.approx([-lim.tau_max, lim.tau_max])
    assert list(m.opt.gravity) == pytest.approx([0.0, 0.0, -GRAVITY])
    assert 35.0 < float(sum(m.body_mass)) < 50.0  # stand 16 kg + robot ~27 kg
    floating = build_model(DT, base='floating')
    assert floating.nq == NUM_JOINTS + 7 and floating.joint(0).name == 'stand_free'


def test_fixed_base_holds_the_example_pose_under_gravity():
    # The example's arm pose and gains (kp/kd on arms and neck, waist_kp/waist_kd = the
    # vendor's on the waist, see test_uniform_kp_60_lets_the_waist_sag), at its rate.
    assert example_params()['waist_kp'] == VENDOR_WAIST_KP
    goal, kp, kd, rate = example_goal_and_gains()
    m = mujoco_model(command_timeout=0.1)
    cmd = lowcmd(goal, kp, kd)
    drive(m, cmd, 3.0, rate)
    settled = m.q.copy()
    drive(m, cmd, 5.0, rate)
    err = m.q - goal
    # Held: every joint near its target, at rest, and still where it was 5 s ago.
    assert np.all(np.abs(err) < 0.15), dict(zip(JOINT_NAMES, np.round(err, 3)))
    assert np.all(np.abs(m.dq) < 1e-3)
    assert np.allclose(m.q, settled, atol=5e-3)
    assert m.motor_modes() == [1] * NUM_JOINTS and m.timeouts == 0
    # ... against gravity: the arms carry a load, and a PD joint at rest sags by load/kp.
    assert np.max(np.abs(m.tau[5:])) > 1.0
    assert np.allclose(m.tau, kp * (goal - m.q), atol=0.05)


def test_uniform_kp_60_lets_the_waist_sag():
    # With kp=60 on the waist the upper body (an inverted pendulum) leans far forward:
    # the example's arm gains are too soft for Adam U's waist (README), hence waist_kp.
    goal, kp, kd, rate = example_goal_and_gains(uniform=True)
    assert kp[0] == 60.0
    m = mujoco_model(command_timeout=0.1)
    drive(m, lowcmd(goal, kp, kd), 4.0, rate)
    waist_pitch = JOINT_NAMES.index('waistPitch')
    assert m.q[waist_pitch] - goal[waist_pitch] > 0.3
    assert abs(m.dq[waist_pitch]) < 1e-2


def test_no_command_for_the_timeout_goes_limp_and_sags():
    goal, kp, kd, rate = example_goal_and_gains()
    m = mujoco_model(command_timeout=0.1, damping_kd=1.0)
    assert m.timed_out  # safe damping until the first command
    drive(m, lowcmd(goal, kp, kd), 3.0, rate)
    m.apply_lowcmd(lowcmd(goal, kp, kd))  # the last command
    held = m.q.copy()
    for _ in range(round(0.1 / DT)):  # nothing changes within the timeout
        m.step(DT)
    assert not m.timed_out and m.motor_modes() == [1] * NUM_JOINTS
    dq_before = m.dq
    m.step(DT)
    assert m.timed_out and m.timeouts == 1 and m.motor_modes() == [0] * NUM_JOINTS
    tau_damped = m.tau.copy()
    # kp=0, tau_ff=0, kd=1 (the torque acts over the step that starts at dq_before)
    assert np.allclose(tau_damped, -1.0 * dq_before, atol=1e-9)
    for _ in range(round(2.0 / DT)):
        m.step(DT)
    sag = m.q - held
    sp_l, sp_r = JOINT_NAMES.index('shoulderPitch_Left'), JOINT_NAMES.index('shoulderPitch_Right')
    waist_pitch = JOINT_NAMES.index('waistPitch')
    # The torso (an inverted pendulum) falls onto a waistPitch stop (which one depends on
    # the arms' swing) and the arms swing down under gravity.
    lim = JOINT_LIMITS[waist_pitch]
    assert min(abs(m.q[waist_pitch] - lim.q_min), abs(m.q[waist_pitch] - lim.q_max)) < 0.02
    assert abs(sag[sp_l]) > 0.3 and abs(sag[sp_r]) > 0.3
    assert np.all(np.isfinite(m.q))
    # The next valid command takes over at once.
    m.apply_lowcmd(lowcmd(goal, kp, kd))
    assert not m.timed_out and m.motor_modes() == [1] * NUM_JOINTS


def test_runs_are_reproducible():
    goal, kp, kd, rate = example_goal_and_gains()
    runs = []
    for _ in range(2):
        m = mujoco_model(command_timeout=0.1)
        drive(m, lowcmd(goal, kp, kd), 0.5, rate)
        runs.append((m.q.copy(), m.dq.copy(), m.tau.copy()))
    for a, b in zip(*runs):
        assert np.array_equal(a, b)


def test_imu_reads_the_stand_attitude_and_gravity():
    ypr = (0.3, -0.2, 0.1)
    m = mujoco_model(imu_ypr=ypr, imu_gyro_bias=(0.01, -0.02, 0.03))
    m.step(DT)
    quat, gyro, acc, got_ypr, _ = m.imu()
    assert math.isclose(sum(x * x for x in quat), 1.0, rel_tol=1e-9)
    assert got_ypr == pytest.approx(list(ypr), abs=1e-9)
    assert gyro == pytest.approx([0.01, -0.02, 0.03], abs=1e-9)
    w, x, y, z = quat
    r_t_z = [2 * (x * z - w * y), 2 * (y * z + w * x), 1 - 2 * (x * x + y * y)]
    assert acc == pytest.approx([GRAVITY * c for c in r_t_z], abs=1e-6)


def test_floating_base_stands_on_its_pads():
    p = MujocoPhysics(DT, base='floating')
    n = NUM_JOINTS
    kp, kd = np.full(n, 100.0), np.full(n, 5.0)
    kp[list(WAIST)], kd[list(WAIST)] = VENDOR_WAIST_KP, VENDOR_WAIST_KD
    for _ in range(round(1.5 / DT)):
        p.step(kp, kd, np.zeros(n), np.zeros(n), np.zeros(n))
    forces = p.foot_forces()
    total_weight = float(sum(p.model.body_mass)) * GRAVITY
    assert sum(forces) == pytest.approx(total_weight, rel=0.02)
    assert min(forces) > 0.1 * total_weight / 4  # all four pads carry load
    assert p.base_height() == pytest.approx(1.05, abs=0.01)
    # Hung on its stand there is no floor contact at the pads.
    assert MujocoPhysics(DT).foot_forces() == [0.0] * 4


def test_state_read_every_kth_step_is_the_state_of_that_step():
    """The joint state is copied out when read: reading it seldom changes no value."""
    n = NUM_JOINTS
    law = (np.full(n, 80.0), np.full(n, 3.0), np.full(n, 0.2), np.zeros(n), np.zeros(n))
    every, seldom = MujocoPhysics(DT, base='floating'), MujocoPhysics(DT, base='floating')
    assert seldom.ddq.tolist() == [0.0] * n     # before any step
    dq_before = every.dq
    for step in range(60):
        for p in (every, seldom):
            p.step(*law)
        q, dq, tau, ddq = every.q, every.dq, every.tau, every.ddq
        d = every.data
        assert q.tolist() == d.qpos[-n:].tolist()
        assert dq.tolist() == d.qvel[-n:].tolist()
        assert tau.tolist() == d.actuator_force.tolist()
        assert ddq.tolist() == ((dq - dq_before) / DT).tolist()
        sensors = [d.sensor(name).data.tolist() for name in ('imu_quat', 'imu_gyro', 'imu_acc')]
        assert list(every.imu()[:3]) == sensors
        dq_before = dq
        if step % 7 == 6:
            for name in ('q', 'dq', 'tau', 'ddq'):
                assert getattr(seldom, name).tolist() == getattr(every, name).tolist(), name
            assert seldom.imu() == every.imu()
    # What was read is a snapshot: the next step does not change it.
    kept = every.q.tolist()
    every.step(*law)
    assert q.tolist() == kept != every.q.tolist()


def test_touch_sensors_read_what_the_contacts_give():
    """The touch sensors at the pads give the contact loop's forces bit for bit."""
    n = NUM_JOINTS
    law = (np.full(n, 100.0), np.full(n, 5.0), np.zeros(n), np.zeros(n), np.zeros(n))
    touch = MujocoPhysics(DT, base='floating', touch_sensors=True)
    contacts = MujocoPhysics(DT, base='floating')
    assert touch.model.nsensor == contacts.model.nsensor + 4
    loaded = 0
    for step in range(round(0.5 / DT)):
        touch.step(*law)
        contacts.step(*law)
        assert touch.q.tolist() == contacts.q.tolist()    # sensors change no dynamics
        forces = touch.foot_forces()
        assert forces == contacts.foot_forces()
        loaded += min(forces) > 0
    assert loaded > 100     # the pads carried load: the comparison compared forces
    assert MujocoPhysics(DT, touch_sensors=True).foot_forces() == [0.0] * 4


def test_bad_engine_settings_are_refused():
    with pytest.raises(ValueError, match='physics_engine'):
        AdamModel(ModelConfig(physics_engine='bullet'))
    with pytest.raises(ValueError, match='floating needs'):
        AdamModel(ModelConfig(base='floating'))
    with pytest.raises(ValueError, match='command_timeout'):
        AdamModel(ModelConfig(command_timeout=-1.0))
