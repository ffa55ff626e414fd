# SPDX-License-Identifier: Apache-2.0
"""The simple (gravity-free) engine and the engine-neutral bookkeeping of AdamModel."""

import math

import numpy as np
from pnd_adam_description.joints import HAND_OPEN, JOINT_LIMITS, NUM_JOINTS
from pnd_adam_sim.model import AdamModel, GRAVITY, ModelConfig
from pnd_adam_sim.vendor_idl import HandCmd_, LowCmd_, MotorCmd_
import pytest

DT = 0.002


def cmd(q=0.0, mode=1, kp=100.0, kd=5.0, dq=0.0, tau=0.0, only=None):
    out = []
    for i in range(NUM_JOINTS):
        on = only is None or i in only
        out.append(MotorCmd_(mode=mode if on else 0, q=q if on else 0.0, dq=dq, tau=tau,
                             kp=kp, kd=kd))
    return LowCmd_(motor_cmd=out)


def run(model, seconds):
    for _ in range(int(round(seconds / DT))):
        model.step(DT)


def test_enabled_joints_track_position_disabled_do_not():
    m = AdamModel()
    m.apply_lowcmd(cmd(q=0.3, only=range(5, 19)))
    run(m, 2.0)
    assert np.allclose(m.q[5:], 0.3, atol=1e-3)
    assert np.allclose(m.dq[5:], 0.0, atol=1e-3)
    assert np.allclose(m.q[:5], 0.0)  # disabled: no torque, stays put
    assert list(m.enabled) == [False] * 5 + [True] * 14


def test_disable_removes_torque_and_joint_coasts_to_rest():
    m = AdamModel()
    m.apply_lowcmd(cmd(q=1.0, kp=20.0, kd=0.0, only=[7]))  # shoulderYaw_Left, +-2.5 rad
    run(m, 0.05)
    assert m.dq[7] > 0.1
    m.apply_lowcmd(cmd(q=0.0, mode=0))
    run(m, 0.002)
    assert m.tau[7] == 0.0
    run(m, 2.0)
    assert abs(m.dq[7]) < 1e-3 and m.tau[7] == 0.0 and m.q[7] > 0.05


def test_velocity_tracking_and_feed_forward():
    m = AdamModel()
    m.apply_lowcmd(cmd(q=0.0, kp=0.0, kd=20.0, dq=0.5, only=[2]))
    run(m, 0.5)
    # kd*(dq_des-dq) = b*dq at equilibrium: dq = kd/(kd+b)*dq_des
    assert m.dq[2] == pytest.approx(20.0 / 20.5 * 0.5, rel=1e-3)
    m2 = AdamModel()
    m2.apply_lowcmd(cmd(q=0.0, kp=0.0, kd=0.0, tau=1.0, only=[3]))
    run(m2, 0.002)
    assert m2.tau[3] == pytest.approx(1.0)
    assert m2.ddq[3] > 0


def test_ki_is_ignored():
    a, b = AdamModel(), AdamModel()
    a.apply_lowcmd(cmd(q=0.2))
    c = cmd(q=0.2)
    for mc in c.motor_cmd:
        mc.ki = 50.0
    b.apply_lowcmd(c)
    run(a, 0.3)
    run(b, 0.3)
    assert np.array_equal(a.q, b.q)


def test_torque_saturates_and_positions_stop_at_limits():
    m = AdamModel()
    m.apply_lowcmd(cmd(q=1.5, kp=1000.0, kd=0.0, only=[5]))  # shoulderPitch_Left upper 1.5
    m.step(DT)
    assert m.tau[5] == pytest.approx(JOINT_LIMITS[5].tau_max)
    m2 = AdamModel()
    m2.apply_lowcmd(cmd(q=0.0, kp=0.0, kd=0.0, tau=10.0, only=[16]))  # wristYaw_Right
    run(m2, 3.0)
    assert m2.q[16] == pytest.approx(JOINT_LIMITS[16].q_max)
    assert m2.dq[16] == 0.0


def test_stiff_gains_stay_stable():
    m = AdamModel()
    m.apply_lowcmd(cmd(q=0.2, kp=1000.0, kd=100.0, only=[10]))
    run(m, 2.0)
    assert m.q[10] == pytest.approx(0.2, abs=1e-3)
    assert np.all(np.isfinite(m.q))


def test_tick_counts_and_wraps():
    m = AdamModel()
    run(m, 0.02)
    assert m.tick == 10
    m.tick = 0xFFFFFFFF
    m.step(DT)
    assert m.tick == 0


def test_battery_consistent_and_integrates():
    m = AdamModel(ModelConfig(battery_capacity_wh=1.0, battery_initial_soc=0.5))
    energy = 0.0
    for _ in range(500):
        m.step(DT)
        assert m.power == pytest.approx(m.voltage * m.current)
        energy += m.power * DT / 3600.0
    assert m.wh_accumulated == pytest.approx(energy)
    idle_power = m.power
    assert idle_power == pytest.approx(60.0, rel=1e-6)
    m.apply_lowcmd(cmd(q=0.3, kp=300.0, kd=1.0))
    m.step(DT)
    assert m.power > idle_power and m.current > 0
    assert m.voltage < 54.6
    assert m.battery_status() == 'OK'
    m.wh_accumulated = 0.35  # soc 0.15
    assert m.battery_status() == 'LOW'
    m.wh_accumulated = 0.47
    assert m.battery_status() == 'CRITICAL'


def test_hands_track_target_at_bounded_speed():
    m = AdamModel()
    assert list(m.hand) == [HAND_OPEN] * 12
    m.apply_handcmd(HandCmd_(position=[0] * 6 + [600] * 6))
    run(m, 0.1)  # 2000 units/s -> 200 units
    assert m.hand[0] == pytest.approx(800) and m.hand[6] == pytest.approx(800)
    run(m, 0.5)
    assert list(m.hand) == [0] * 6 + [600] * 6


def test_imu_is_self_consistent():
    quat, gyro, acc, ypr, temp = AdamModel().imu()
    assert math.isclose(sum(x * x for x in quat), 1.0)
    assert math.isclose(math.sqrt(sum(a * a for a in acc)), GRAVITY)
    w, x, y, z = quat
    # Gravity in the sensor frame is R^T * (0, 0, g); level => +z.
    assert acc[2] == pytest.approx(GRAVITY * (1 - 2 * (x * x + y * y)))
    assert ypr == [0.0, 0.0, 0.0] and gyro == [0.0, 0.0, 0.0]
    assert temp == 35


def test_tilted_imu_is_consistent():
    yaw, pitch, roll = 0.3, -0.2, 0.1
    m = AdamModel(ModelConfig(imu_ypr=(yaw, pitch, roll), imu_gyro_bias=(0.01, -0.02, 0.03)))
    (w, x, y, z), gyro, acc, ypr, _ = m.imu()
    assert math.isclose(w * w + x * x + y * y + z * z, 1.0)
    # Euler angles back from the quaternion (ZYX convention).
    assert math.atan2(2 * (w * z + x * y), 1 - 2 * (y * y + z * z)) == pytest.approx(yaw)
    assert math.asin(2 * (w * y - z * x)) == pytest.approx(pitch)
    assert math.atan2(2 * (w * x + y * z), 1 - 2 * (x * x + y * y)) == pytest.approx(roll)
    # Accelerometer = third row of R^T times g.
    r_t_z = [2 * (x * z - w * y), 2 * (y * z + w * x), 1 - 2 * (x * x + y * y)]
    assert acc == pytest.approx([GRAVITY * c for c in r_t_z])
    assert ypr == [yaw, pitch, roll] and gyro == [0.01, -0.02, 0.03]


def test_wireless_remote_is_the_configured_reading():
    assert AdamModel().wireless_remote() == [0] * 40
    assert AdamModel(ModelConfig(wireless_remote=range(-20, 20))).wireless_remote() == \
        list(range(-20, 20))


def test_command_timeout_damps_in_simulated_time():
    m = AdamModel(ModelConfig(command_timeout=0.1, damping_kd=2.0))
    assert m.timed_out and m.motor_modes() == [0] * NUM_JOINTS  # before the first command
    m.apply_lowcmd(cmd(q=0.3, kp=100.0, kd=5.0, only=[7]))
    run(m, 0.1)  # exactly the timeout: still in force
    assert not m.timed_out and m.motor_modes()[7] == 1 and m.dq[7] > 0
    m.step(DT)
    assert m.timed_out and m.timeouts == 1 and m.motor_modes() == [0] * NUM_JOINTS
    run(m, 1.0)
    assert abs(m.dq[7]) < 1e-3 and abs(m.tau[7]) < 1e-2  # damped to rest, no spring
    assert m.q[7] < 0.29  # stopped short of the old target: kp is off
    m.apply_lowcmd(cmd(q=0.3, kp=100.0, kd=5.0, only=[7]))
    assert not m.timed_out and m.motor_modes()[7] == 1


def test_no_timeout_keeps_the_last_command():
    m = AdamModel()  # command_timeout 0: off
    assert not m.timed_out
    m.apply_lowcmd(cmd(q=0.3, only=[7]))
    run(m, 2.0)
    assert not m.timed_out and m.q[7] == pytest.approx(0.3, abs=1e-3)
