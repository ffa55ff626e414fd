# SPDX-License-Identifier: Apache-2.0
"""
The MuJoCo engine: model, actuator law, and control_node's core on it (issue #16 checks).

No ROS: the two cores run in closed loop on simulated time, faster than real time.
"""

from closed_loop import DT, Loop
from conftest import array_command, command
from hb50_nodes import control_core as cc, kinematics
from hb50_nodes.bridge_core import BridgeConfig, BridgeCore
from hb50_nodes.kinematics import LegGeometry
from hb50_nodes.layout import EFFORT_LIMIT, JOINT_NAMES, NUM_JOINTS
from hb50_nodes.mujoco_physics import MujocoSim
from hb50_nodes.physics import GRAVITY, SimConfig, STATUS_MOTION_ERROR
from hb50_nodes.validation import GainLimits
import mujoco
import numpy as np
import pytest
from robot_model.quaternion import to_rpy

STAND_HEIGHT = cc.ControlConfig().stand_height


def imu_rpy(sim):
    return to_rpy(sim.imu()[0])


@pytest.fixture(scope='module')
def standing():
    """Run the stack's two cores on MuJoCo: stood up (2 s) and settled (1 s)."""
    loop = Loop('mujoco')
    loop.run(3.0)
    assert loop.control.mode == cc.MODE_STAND
    return loop


def test_model_matches_the_kinematics_and_the_configured_mass():
    geo = LegGeometry(hip_x=0.24, l_thigh=0.2)       # the loader applies the parameters
    sim = MujocoSim(SimConfig(body_mass=16.0), geo)
    m, d = sim.model, sim.data
    assert tuple(m.actuator(i).name for i in range(m.nu)) == JOINT_NAMES
    assert np.all(m.actuator_forcerange == [-EFFORT_LIMIT, EFFORT_LIMIT])
    assert np.all(m.actuator_forcelimited)
    assert abs(mujoco.mj_getTotalmass(m) - 16.0) < 1e-9
    rng = np.random.default_rng(7)
    for _ in range(20):
        q = rng.uniform(-0.8, 0.8, NUM_JOINTS)
        d.qpos[7:] = q
        mujoco.mj_kinematics(m, d)
        rot = d.xmat[sim._trunk].reshape(3, 3)
        feet = np.array([rot.T @ (d.site(f'{leg}_foot').xpos - d.xpos[sim._trunk])
                         for leg in ('fr', 'fl', 'rl', 'rr')])
        np.testing.assert_allclose(feet, kinematics.forward(geo, q.reshape(4, 3)), atol=1e-9)


def test_actuator_law_torque_limit_and_brake():
    sim = MujocoSim(SimConfig(), LegGeometry())
    # Pure feed-forward: the motor gives t_trq exactly.
    sim.step(array_command(kp=0.0, kd=0.0, t_trq=np.full(NUM_JOINTS, 3.0)), DT)
    np.testing.assert_allclose(sim.tau, 3.0)
    assert not np.any(sim.status & STATUS_MOTION_ERROR)
    # PD far from the target: clipped at the effort limit, MOTION_ERROR set.
    sim.step(array_command(kp=400.0, kd=0.0, t_pos=sim.q + 1.0), DT)
    np.testing.assert_allclose(sim.tau, EFFORT_LIMIT)
    assert np.all(sim.status & STATUS_MOTION_ERROR)
    # A braked joint holds exactly, with zero velocity and effort, whatever the torque.
    q0 = sim.q.copy()
    brake = np.zeros(NUM_JOINTS, dtype=bool)
    brake[[0, 4, 8]] = True
    for _ in range(100):
        sim.step(array_command(kp=0.0, kd=0.0, t_trq=np.full(NUM_JOINTS, 10.0), brake=brake),
                 DT)
    np.testing.assert_array_equal(sim.q[brake], q0[brake])
    assert np.all(sim.dq[brake] == 0.0) and np.all(sim.tau[brake] == 0.0)
    assert np.all(np.abs(sim.q[~brake] - q0[~brake]) > 0.01)


def test_power_model_runs_on_mujoco_efforts(standing):
    sim = standing.sim
    energy = sim.bus_energy_kwh
    standing.run(0.2)
    assert abs(sim.bus_p - sim.bus_v * sim.bus_i) < 1e-9
    expected = sim.cfg.idle_power + np.sum(np.abs(sim.tau * sim.dq)) + \
        sim.cfg.copper_loss * np.sum(sim.tau ** 2)
    assert abs(sim.bus_p - expected) < 1e-6
    # Standing loads the knees: more than idle power, and the energy counter grows.
    assert sim.bus_p > sim.cfg.idle_power + 1.0 and sim.bus_energy_kwh > energy


def test_stand_holds_height_and_level_for_10_s(standing):
    rows = []
    standing.run(10.0, each=lambda lp: rows.append(
        (lp.sim.height, *imu_rpy(lp.sim)[:2], lp.control.est.position[2])))
    rows = np.array(rows)
    assert standing.control.mode == cc.MODE_STAND
    assert np.all(np.abs(rows[:, 0] - STAND_HEIGHT) < 0.01), rows[:, 0].min()
    assert np.all(np.abs(rows[:, 1:3]) < 0.05)
    # control_node's estimate of the height agrees.
    assert np.all(np.abs(rows[:, 3] - STAND_HEIGHT) < 0.01)
    assert standing.sim.contact.all()
    # Feet carry the weight: the contact forces add up to m*g.
    assert abs(standing.sim.foot_force[:, 2].sum() - 15.0 * GRAVITY) < 2.0
    # At rest the IMU reads +1 g along body z.
    np.testing.assert_allclose(standing.sim.imu()[2], (0.0, 0.0, GRAVITY), atol=0.2)


@pytest.mark.parametrize('axis,value', [('pitch', 0.5), ('pitch', -1.0), ('roll', 1.0)])
def test_roll_pitch_command_tilts_the_body(standing, axis, value):
    angular = (value, 0.0, 0.0) if axis == 'roll' else (0.0, value, 0.0)
    standing.run(1.0, ((0.0, 0.0, 0.0), angular))
    want = value * cc.ControlConfig().tilt_range
    roll, pitch, _ = imu_rpy(standing.sim)
    got, other = (roll, pitch) if axis == 'roll' else (pitch, roll)
    assert abs(got - want) < 0.05, (got, want)
    assert abs(other) < 0.05
    # control_node's estimate carries the IMU angle (one tick older).
    assert abs(standing.control.est.rpy[0 if axis == 'roll' else 1] - got) < 0.01
    standing.run(1.0, ((0.0, 0.0, 0.0), (0.0, 0.0, 0.0)))
    assert np.all(np.abs(imu_rpy(standing.sim)[:2]) < 0.05)


def test_external_push_shows_in_imu_roll(standing):
    standing.run(0.5)
    before = abs(imu_rpy(standing.sim)[0])
    rolls = []
    standing.sim.push(force=(0.0, 60.0, 0.0))     # 60 N sideways at the trunk, 0.3 s
    standing.run(0.3, each=lambda lp: rolls.append(imu_rpy(lp.sim)[0]))
    standing.sim.push()
    assert max(np.abs(rolls)) > before + 0.05
    gyro_x = standing.sim.imu()[1][0]
    standing.run(2.0)
    assert abs(gyro_x) > 0.1
    # It recovers: level again, still standing.
    assert np.all(np.abs(imu_rpy(standing.sim)[:2]) < 0.05)
    assert abs(standing.sim.height - STAND_HEIGHT) < 0.01


def test_trot_at_0_3_m_s_for_5_s(standing):
    fwd = 0.3 / cc.ControlConfig().cmd_vel_lin           # normalised command for 0.3 m/s
    tilt = []
    standing.run(1.0, ((fwd, 0.0, 0.0), (0.0, 0.0, 0.0)))    # ramp up (accel_limit 1 m/s^2)
    v = standing.run(5.0, ((fwd, 0.0, 0.0), (0.0, 0.0, 0.0)),
                     each=lambda lp: tilt.append(imu_rpy(lp.sim)[:2]))
    assert standing.control.mode == cc.MODE_LOCOMOTION
    truth, estimate = v[:, 0].mean(), v[:, 3].mean()
    print(f'trot 0.3 m/s: MuJoCo {truth:.3f} m/s, estimate {estimate:.3f} m/s, '
          f'max |roll|,|pitch| {np.abs(tilt).max():.3f} rad')
    assert abs(truth - 0.3) < 0.1
    assert abs(estimate - 0.3) < 0.1
    assert np.abs(tilt).max() < 0.3
    standing.run(2.0)
    assert standing.control.mode == cc.MODE_STAND


def test_command_timeout_damps_and_the_body_settles_on_the_ground(standing):
    # Last user of the standing robot: it is damped and lies down for good.
    standing.run(4.0, commanding=False)      # control_node's commands stop reaching the bridge
    sim = standing.sim
    assert standing.bridge.damped
    state = np.concatenate([sim.data.qpos, sim.data.qvel, sim.data.qacc])
    assert np.all(np.isfinite(state))
    # The trunk rests on the floor (its half-height 0.05 m), still and level.
    assert abs(sim.position[2] - 0.05) < 0.01
    assert np.abs(sim.data.qvel).max() < 0.01
    assert np.all(np.abs(imu_rpy(sim)[:2]) < 0.05)
    # The damping law itself: no stiffness, effort = -kd * dq.
    np.testing.assert_allclose(sim.tau, -BridgeConfig().damping_kd * sim.dq, atol=1e-5)


def test_late_tick_steps_the_nominal_period_and_runs_are_reproducible():
    def run():
        core = BridgeCore(BridgeConfig(), SimConfig(physics_engine='mujoco'), LegGeometry(),
                          GainLimits(), None, 0.0)
        cmd = array_command(kp=40.0, kd=1.0, t_pos=np.tile([0.0, 0.8, -1.6], 4))
        core.on_command(cmd_msg(cmd), 0.0)
        core.step(0.0, DT)
        core.on_command(cmd_msg(cmd), 0.05)
        core.step(0.05, DT)          # 50 ms late on the wall clock: still one 2 ms step
        return core.sim
    a, b = run(), run()
    assert a.time == pytest.approx(2 * DT)
    assert a.data.time == pytest.approx(2 * DT)
    np.testing.assert_array_equal(a.data.qpos, b.data.qpos)
    np.testing.assert_array_equal(a.data.qvel, b.data.qvel)


def cmd_msg(cmd):
    return command(cmd.source, kp=cmd.kp, kd=cmd.kd, t_pos=cmd.t_pos, t_vel=cmd.t_vel,
                   t_trq=cmd.t_trq)
