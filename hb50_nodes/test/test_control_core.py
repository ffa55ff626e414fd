"""control_node's logic in closed loop with the simulated hardware, without ROS."""

import math

import numpy as np
import pytest
from conftest import command

from hb50_nodes import control_core as cc
from hb50_nodes.bridge_core import BridgeConfig, BridgeCore
from hb50_nodes.gait import InvalidVelocityCommand, scale_velocity, VelocityCommand
from hb50_nodes.kinematics import LegGeometry
from hb50_nodes.physics import SimConfig
from hb50_nodes.validation import GainLimits

DT = 0.002


class Loop:
    def __init__(self):
        geo = LegGeometry()
        self.bridge = BridgeCore(BridgeConfig(), SimConfig(), geo, GainLimits(), None, 0.0)
        self.control = cc.ControlCore(cc.ControlConfig(), geo)
        self.t = 0.0

    def run(self, seconds, twist=None):
        """Returns the (true vx, vy, wz, estimated vx, vy, wz) of every tick."""
        out = []
        for _ in range(int(round(seconds / DT))):
            sim = self.bridge.sim
            quat, gyro, _ = sim.imu()
            self.control.on_bridge_data(sim.q, sim.dq, sim.tau, quat, gyro)
            if twist is not None:
                self.control.on_velocity_command(twist[0], twist[1], self.t)
            targets, _ = self.control.step(self.t, DT)
            if targets is not None:
                self.bridge.on_command(command(kp=targets.kp, kd=targets.kd, t_pos=targets.t_pos,
                                               t_vel=targets.t_vel, t_trq=targets.t_trq),
                                       self.t)
            self.bridge.step(self.t, DT)
            self.t += DT
            est = self.control.est
            out.append(sim.body_twist + (est.body_lin[0], est.body_lin[1], est.body_ang[2]))
        return np.array(out)


@pytest.fixture(scope='module')
def standing():
    loop = Loop()
    loop.run(3.0)
    return loop


def test_scaling_clamps_then_scales():
    cmd = scale_velocity((2.0, -0.5, 3.0), (-7.0, 0.25, 0.5), 0.5, 1.2)
    assert cmd == VelocityCommand(0.5, -0.25, 1.0, -1.2, 0.3, 0.6)
    with pytest.raises(InvalidVelocityCommand):
        scale_velocity((math.nan, 0.0, 0.0), (0.0, 0.0, 0.0), 0.5, 1.0)


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
