# SPDX-License-Identifier: Apache-2.0
"""control_node's core in closed loop with bridge_node's core (either engine), without ROS."""

from conftest import command
from hb50_nodes import control_core as cc
from hb50_nodes.bridge_core import BridgeConfig, BridgeCore
from hb50_nodes.kinematics import LegGeometry
from hb50_nodes.physics import SimConfig
from hb50_nodes.validation import GainLimits
import numpy as np

DT = 0.002


class Loop:
    """Steps both cores at 500 Hz of simulated time, as fast as the machine allows."""

    def __init__(self, engine, **sim_overrides):
        geo = LegGeometry()
        self.sim_cfg = SimConfig(physics_engine=engine, **sim_overrides)
        self.bridge = BridgeCore(BridgeConfig(), self.sim_cfg, geo, GainLimits(), None, 0.0)
        self.control = cc.ControlCore(cc.ControlConfig(), geo)
        self.t = 0.0

    @property
    def sim(self):
        return self.bridge.sim

    def run(self, seconds, twist=None, commanding=True, each=None):
        """
        Run `seconds`; twist = ((lin x, y, z), (ang x, y, z)) normalised, sent every tick.

        commanding=False: control_node's commands are not delivered (the bridge times out).
        Returns the rows (true vx, vy, wz, estimated vx, vy, wz) of every tick; `each(loop)`,
        if given, is called after every tick.
        """
        out = []
        for _ in range(int(round(seconds / DT))):
            sim = self.bridge.sim
            quat, gyro, _ = sim.imu()
            self.control.on_bridge_data(sim.q, sim.dq, sim.tau, quat, gyro)
            if twist is not None:
                self.control.on_velocity_command(twist[0], twist[1], self.t)
            targets, _ = self.control.step(self.t, DT)
            if targets is not None and commanding:
                self.bridge.on_command(command(kp=targets.kp, kd=targets.kd, t_pos=targets.t_pos,
                                               t_vel=targets.t_vel, t_trq=targets.t_trq),
                                       self.t)
            self.bridge.step(self.t, DT)
            self.t += DT
            est = self.control.est
            out.append(sim.body_twist + (est.body_lin[0], est.body_lin[1], est.body_ang[2]))
            if each is not None:
                each(self)
        return np.array(out)
