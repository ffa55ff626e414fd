# SPDX-License-Identifier: Apache-2.0
"""
control_node's logic in closed loop with the simple engine, without ROS.

The same core on the MuJoCo engine: test_mujoco_physics.py.
"""

import math

from closed_loop import Loop
from hb50_nodes import control_core as cc, kinematics
from hb50_nodes.gait import InvalidVelocityCommand, scale_velocity, VelocityCommand
from hb50_nodes.kinematics import LegGeometry
import numpy as np
import pytest
from robot_model.quaternion import to_rpy


@pytest.fixture(scope='module')
def standing():
    loop = Loop('simple')
    loop.run(3.0)
    return loop


def test_scaling_clamps_then_scales():
    # Roll and pitch are tilt angles: scaled by tilt_range (0.3 rad), yaw rate by cmd_vel_ang.
    cmd = scale_velocity((2.0, -0.5, 3.0), (-7.0, 0.25, 0.5), 0.5, 1.2, 0.3)
    assert cmd == VelocityCommand(0.5, -0.25, 1.0, -0.3, 0.075, 0.6)
    with pytest.raises(InvalidVelocityCommand):
        scale_velocity((math.nan, 0.0, 0.0), (0.0, 0.0, 0.0), 0.5, 1.0, 0.3)


def test_stand_up_converges_to_stand_pose(standing):
    assert standing.control.mode == cc.MODE_STAND
    np.testing.assert_allclose(standing.bridge.sim.q, standing.control.stand_pose(), atol=0.02)
    est = standing.control.est
    assert est.contact.all()
    # Each foot carries about a quarter of the weight.
    np.testing.assert_allclose(est.force[:, 2], 15.0 * 9.81 / 4, rtol=0.1)
    assert abs(est.position[2] - 0.28) < 0.02


def test_trot_follows_forward_and_yaw_commands(standing):
    # 3.0 is clamped to 1 -> 0.5 m/s with the default cmd_vel_lin.
    v = standing.run(3.0, ((3.0, 0.0, 0.0), (0.0, 0.0, 0.0)))
    assert standing.control.mode == cc.MODE_LOCOMOTION
    assert standing.control.motion_type == cc.TYPE_DYNAMIC
    assert abs(v[-500:, 0].mean() - 0.5) < 0.05      # true body velocity
    assert abs(v[-500:, 3].mean() - 0.5) < 0.08      # estimate published in RobotState
    v = standing.run(3.0, ((0.0, 0.0, 0.0), (0.0, 0.0, -0.4)))
    assert abs(v[-500:, 2].mean() + 0.4) < 0.05
    assert abs(v[-500:, 5].mean() + 0.4) < 0.05
    standing.run(2.0, ((0.0, 0.0, 0.0), (0.0, 0.0, 0.0)))
    assert standing.control.mode == cc.MODE_STAND
    assert standing.control.gait == cc.GAIT_STAND


def test_velocity_command_times_out_to_zero(standing):
    standing.run(0.2, ((1.0, 0.0, 0.0), (0.0, 0.0, 0.0)))
    standing.run(3.0)     # no new command: after 0.5 s it counts as zero
    assert standing.control.mode == cc.MODE_STAND


def test_large_tracking_error_restarts_smooth_stand_up(standing):
    standing.bridge.sim.q[:] += 0.5     # someone else moved the joints
    standing.run(0.01)
    assert standing.control.mode == cc.MODE_STAND_UP
    standing.run(3.0)
    assert standing.control.mode == cc.MODE_STAND


def test_stand_up_from_joints_past_the_envelope_is_never_refused():
    # A fall (or another source) left every knee past bridge_node's t_pos envelope (-3 rad):
    # the stand-up ramp starts inside it, so no command is refused and the robot stands.
    loop = Loop('simple')
    loop.run(3.0)
    knees = slice(2, 12, 3)
    loop.bridge.sim.q[knees] = -3.05
    rejected = loop.bridge.rejected
    loop.run(0.01)
    assert loop.control.mode == cc.MODE_STAND_UP
    assert (loop.control.target[knees] >= -3.0).all()
    loop.run(3.0)
    assert loop.bridge.rejected == rejected
    assert loop.control.mode == cc.MODE_STAND
    np.testing.assert_allclose(loop.bridge.sim.q, loop.control.stand_pose(), atol=0.02)


def test_estimate_levels_the_feet_with_the_imu_roll_and_pitch():
    core = cc.ControlCore(cc.ControlConfig(), LegGeometry())
    pitch = 0.2
    # A body pitched nose-down by 0.2 rad over level feet: in the body frame the feet are the
    # level stance rotated by R^T; the measured torques load all four feet.
    rot = cc.rotation_rp(0.0, pitch)
    feet_body = core.nominal_feet(0.28) @ rot
    q = kinematics.inverse(core.geo, feet_body).reshape(-1)
    jac = kinematics.jacobian(core.geo, q.reshape(4, 3))
    force = np.tile([0.0, 0.0, 40.0], (4, 1))
    tau = -kinematics.joint_torque_from_force(jac, force).reshape(-1)
    quat = (0.0, np.sin(pitch / 2), 0.0, np.cos(pitch / 2))
    core.on_bridge_data(q, np.zeros(12), tau, quat, (0.0, 0.0, 0.0))
    core.step(0.0, 0.002)
    assert core.est.contact.all()
    np.testing.assert_allclose(core.est.rpy, (0.0, pitch, 0.0), atol=1e-9)
    # Levelled with the IMU pitch, every foot is 0.28 m below the body centre.
    assert abs(core.est.position[2] - 0.28) < 1e-6


def test_tilt_command_ramps_the_body_frame_foot_targets():
    # Ideal joints (q = last target), no physics: the flat simple engine cannot tilt (its body
    # rests on the lowest feet), MuJoCo's closed loop is in test_mujoco_physics.py.
    core = cc.ControlCore(cc.ControlConfig(), LegGeometry())
    q, t = core.stand_pose(), 0.0
    core.mode = cc.MODE_STAND
    for _ in range(500):
        core.on_bridge_data(q, np.zeros(12), np.zeros(12), (0.0, 0.0, 0.0, 1.0), (0, 0, 0))
        core.on_velocity_command((0.0, 0.0, 0.0), (0.5, -1.0, 0.0), t)
        targets, _ = core.step(t, 0.002)
        q, t = targets.t_pos, t + 0.002
        if t < 0.1:
            # Ramped at cmd_vel_ang (1 rad/s).
            assert np.all(np.abs(core.tilt) <= t + 1e-9)
    np.testing.assert_allclose(core.tilt, (0.15, -0.3), atol=1e-9)     # 0.5 and -1 x 0.3 rad
    feet = kinematics.forward(core.geo, q.reshape(4, 3))
    # Back in the level frame the commanded feet are the flat stance again.
    np.testing.assert_allclose(feet @ cc.rotation_rp(0.15, -0.3).T, core.nominal_feet(0.28),
                               atol=1e-6)


def _reference_estimate(core, est, q, dq, tau, quat, dt):
    """Compute the estimate with kinematics.py's numpy functions (the math before)."""
    cfg = core.cfg
    feet, jac = kinematics.forward_and_jacobian(core.geo, q.reshape(4, 3))
    vel = kinematics.foot_velocity(jac, dq.reshape(4, 3))
    force = kinematics.foot_force_from_torque(jac, tau.reshape(4, 3))
    contact = force[:, 2] > cfg.contact_force
    vx, vy, _ = kinematics.body_twist_from_feet(feet, vel, contact)
    est['body_lin'][0] += cfg.velocity_filter * (vx - est['body_lin'][0])
    est['body_lin'][1] += cfg.velocity_filter * (vy - est['body_lin'][1])
    roll, pitch, yaw = to_rpy(quat)
    rot = cc.rotation_rp(roll, pitch)
    level = rot @ est['body_lin']
    c, s = math.cos(yaw), math.sin(yaw)
    world = np.array([c * level[0] - s * level[1], s * level[0] + c * level[1], level[2]])
    est['position'][:2] += world[:2] * dt
    if contact.any():
        est['position'][2] = np.max(-(feet[contact] @ rot.T)[:, 2])
    return feet, vel, force, contact, world


def test_plain_float_estimate_equals_the_numpy_kinematics_on_random_states():
    rng = np.random.default_rng(20)
    core = cc.ControlCore(cc.ControlConfig(), LegGeometry())
    ref = {'body_lin': np.zeros(3), 'position': np.zeros(3)}
    stances = 0
    for _ in range(200):
        q = core.stand_pose() + rng.normal(0.0, 0.3, 12)
        dq, tau = rng.normal(0.0, 3.0, 12), rng.normal(0.0, 8.0, 12)
        axis = rng.normal(size=3)
        half = rng.uniform(-0.4, 0.4) * axis / np.linalg.norm(axis)
        quat = (*np.sin(np.linalg.norm(half)) * half / np.linalg.norm(half),
                np.cos(np.linalg.norm(half)))
        core.on_bridge_data(q, dq, tau, quat, rng.normal(size=3))
        core._estimate(0.002)
        feet, vel, force, contact, world = _reference_estimate(core, ref, q, dq, tau, quat,
                                                               0.002)
        est = core.est
        np.testing.assert_allclose(est.feet, feet, rtol=1e-12, atol=1e-12)
        np.testing.assert_allclose(est.foot_vel, vel, rtol=1e-12, atol=1e-12)
        np.testing.assert_allclose(est.force, force, rtol=1e-9, atol=1e-9)
        np.testing.assert_array_equal(est.contact, contact)
        np.testing.assert_allclose(est.body_lin, ref['body_lin'], rtol=1e-9, atol=1e-12)
        np.testing.assert_allclose(est.world_lin, world, rtol=1e-9, atol=1e-12)
        np.testing.assert_allclose(est.position, ref['position'], rtol=1e-9, atol=1e-12)
        stances += int(contact.sum())
    assert 0 < stances < 800      # both branches of the contact test were taken


def test_stretched_leg_force_is_least_squares_like_numpy():
    core = cc.ControlCore(cc.ControlConfig(), LegGeometry())
    q, tau = np.zeros(12), np.tile([0.5, -2.0, 1.0], 4)
    core.on_bridge_data(q, np.zeros(12), tau, (0.0, 0.0, 0.0, 1.0), (0.0, 0.0, 0.0))
    core._estimate(0.002)
    jac = kinematics.jacobian(core.geo, q.reshape(4, 3))
    np.testing.assert_allclose(core.est.force,
                               kinematics.foot_force_from_torque(jac, tau.reshape(4, 3)),
                               atol=1e-12)
    assert np.isfinite(core.est.force).all()
