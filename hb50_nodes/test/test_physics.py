# SPDX-License-Identifier: Apache-2.0
"""The simple engine (physics.HardwareSim): actuator law, limits, brake, thermal, power, body."""

from conftest import array_command
from hb50_nodes.kinematics import LegGeometry
from hb50_nodes.layout import NUM_JOINTS
from hb50_nodes.physics import GRAVITY, HardwareSim, SimConfig, STATUS_MOTION_ERROR, \
    STATUS_TARGET_REACHED
import numpy as np

DT = 0.002
GEO = LegGeometry()
STAND = np.tile([0.0, 0.8, -1.6], 4)


def run(sim, cmd, seconds):
    for _ in range(int(seconds / DT)):
        sim.step(cmd, DT)


def test_pd_tracks_target_and_sets_reached_bit():
    sim = HardwareSim(SimConfig(body_mass=0.0), GEO)   # no load: pure PD tracking
    target = STAND + 0.1
    run(sim, array_command(kp=60.0, kd=2.0, t_pos=target), 1.0)
    np.testing.assert_allclose(sim.q, target, atol=1e-3)
    assert np.all(sim.status & STATUS_TARGET_REACHED)
    assert not np.any(sim.status & STATUS_MOTION_ERROR)


def test_torque_and_velocity_limits_clip_and_flag():
    cfg = SimConfig(body_mass=0.0)
    sim = HardwareSim(cfg, GEO)
    run(sim, array_command(kp=0.0, kd=0.0, t_trq=np.full(NUM_JOINTS, 100.0)), 0.05)
    assert np.all(np.abs(sim.tau) <= cfg.effort_limit + 1e-9)
    assert np.all(sim.status & STATUS_MOTION_ERROR)
    run(sim, array_command(kp=0.0, kd=0.0, t_trq=np.full(NUM_JOINTS, 100.0)), 0.5)
    assert np.all(np.abs(sim.dq) <= cfg.velocity_limit + 1e-9)
    assert np.allclose(np.abs(sim.dq), cfg.velocity_limit)


def test_brake_holds_joint_under_torque():
    sim = HardwareSim(SimConfig(), GEO)
    q0 = sim.q.copy()
    run(sim, array_command(kp=0.0, kd=0.0, t_trq=np.full(NUM_JOINTS, 10.0),
                           brake=np.ones(NUM_JOINTS, bool)), 0.5)
    np.testing.assert_array_equal(sim.q, q0)
    assert np.all(sim.dq == 0.0) and np.all(sim.tau == 0.0)


def test_temperature_rises_with_torque_and_cools_to_ambient():
    cfg = SimConfig(cooling_time=2.0)
    sim = HardwareSim(cfg, GEO)
    # Standing, the knees carry the body weight (several N*m each).
    run(sim, array_command(kp=60.0, kd=2.0, t_pos=STAND), 2.0)
    knees = slice(2, None, 3)
    assert np.all(np.abs(sim.tau[knees]) > 3.0)
    hot = sim.temperature.copy()
    assert np.all(hot[knees] > cfg.ambient_temperature + 0.5)
    # Passive: the body settles on the ground, no torque, the actuators cool down.
    run(sim, array_command(kp=0.0, kd=1.0), 12.0)
    assert np.all(sim.temperature[knees] < hot[knees])
    np.testing.assert_allclose(sim.temperature, cfg.ambient_temperature, atol=0.05)


def test_power_fields_are_consistent():
    sim = HardwareSim(SimConfig(), GEO)
    cmd = array_command(kp=60.0, kd=2.0, t_pos=STAND)
    energy_kwh = 0.0
    battery = sim.battery
    for _ in range(500):
        sim.step(cmd, DT)
        assert abs(sim.bus_p - sim.bus_v * sim.bus_i) < 1e-9
        energy_kwh += sim.bus_p * DT / 3.6e6
        assert sim.battery < battery
        battery = sim.battery
    assert abs(sim.bus_energy_kwh - energy_kwh) < 1e-12
    drained_wh = (100.0 - sim.battery) / 100.0 * sim.cfg.battery_capacity_wh
    assert abs(drained_wh - energy_kwh * 1000.0) < 1e-9


def test_body_rests_on_ground_then_stands_with_gravity_loads():
    cfg = SimConfig()
    sim = HardwareSim(cfg, GEO)
    assert not sim.contact.any() and sim.height == cfg.rest_height
    run(sim, array_command(kp=60.0, kd=2.0, t_pos=STAND), 2.0)
    assert sim.contact.all()
    # Each leg carries a quarter of the weight: the joints feel J^T F (nonzero load).
    assert sim.height > 0.25 and np.any(np.abs(sim.tau_load) > 1.0)
    # Without stiffness the legs fold and the body sinks back to the ground.
    run(sim, array_command(kp=0.0, kd=1.0), 3.0)
    assert sim.height < 0.2


def test_imu_consistent_with_body_state():
    sim = HardwareSim(SimConfig(), GEO)
    run(sim, array_command(kp=60.0, kd=2.0, t_pos=STAND), 1.0)
    quat, gyro, accel = sim.imu()
    assert abs(np.linalg.norm(quat) - 1.0) < 1e-12
    # Standing still: the accelerometer reads +1 g along body z, the gyro nothing.
    np.testing.assert_allclose(accel, (0.0, 0.0, GRAVITY), atol=0.05)
    np.testing.assert_allclose(gyro, (0.0, 0.0, 0.0), atol=1e-6)
    # Yaw in the quaternion is the integral of the reported yaw rate.
    sim.body_twist = (0.0, 0.0, 0.0)
    yaw = 0.0
    target = STAND.copy()
    for i in range(500):
        # Front and rear hips abduct in opposite directions: the planted feet turn the body.
        a = 0.1 * np.sin(i * DT * 8)
        target[[0, 3]] = a
        target[[6, 9]] = -a
        sim.step(array_command(kp=60.0, kd=2.0, t_pos=target), DT)
        yaw += sim.imu()[1][2] * DT
    quat = sim.imu()[0]
    assert abs(yaw) > 1e-3
    assert abs(2.0 * np.arctan2(quat[2], quat[3]) - yaw) < 1e-9
