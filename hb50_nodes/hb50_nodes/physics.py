# SPDX-License-Identifier: Apache-2.0
"""
Simulated HB50 hardware, engine `simple`: quasi-static body on rigid joints.

12 rigid joints, a quasi-static body resting on its feet, IMU and power. Plain Python/numpy so
it can be unit-tested without ROS; bridge_node only wraps it. The MuJoCo engine
(mujoco_physics.py) shares the actuator law, the thermal and the power model (drives.py).

Model (deliberately simple, documented in README):
- Joint: I*ddq = tau + tau_load - b*dq, tau = kp(t_pos-q) + kd(t_vel-dq) + t_trq clipped to the
  effort limit; the damping terms are integrated implicitly (stable for any kd), velocity
  clipped to the velocity limit. A braked joint holds still (dq = 0, tau = 0).
- Body: flat (roll = pitch = 0), resting on the feet that reach lowest; the weight m*g is shared
  by the feet within `contact_tolerance` of the lowest one and loads their joints (J^T F). With
  no foot below `rest_height` the body lies on the ground and the legs are unloaded.
- Planar body motion follows the planted feet (no slip); IMU = that motion plus gravity.
- Power: P = idle + sum|tau*dq| + copper*sum(tau^2); bus_i = P/bus_v; battery drains by P*dt.
"""

from typing import Tuple, TYPE_CHECKING, Union

import numpy as np

from . import kinematics
from .arrays import BoolArray, FloatArray, Imu
# The shared model (drives.py), re-exported: SimConfig and the constants are this engine's API.
from .drives import (ActuatorPower, drive_torque, GRAVITY, joint_status, SimConfig,  # noqa: F401
                     STATUS_MOTION_ERROR, STATUS_TARGET_REACHED)
from .kinematics import LegGeometry
from .layout import NUM_JOINTS, NUM_LEGS
from .validation import ValidCommand

if TYPE_CHECKING:
    from .mujoco_physics import MujocoSim


class HardwareSim(ActuatorPower):
    """The whole simulated robot; `step(cmd, dt)` advances it by dt."""

    def __init__(self, cfg: SimConfig, geo: LegGeometry) -> None:
        self._init_power(cfg)
        self.geo = geo
        self.contact: BoolArray = np.zeros(NUM_LEGS, dtype=bool)
        self.height: float = cfg.rest_height
        self.yaw: float = 0.0
        self.position: FloatArray = np.zeros(3)
        self.v_world: FloatArray = np.zeros(3)
        self.body_twist: Tuple[float, float, float] = (0.0, 0.0, 0.0)
        self.accel_world: FloatArray = np.zeros(3)
        self.tau_load: FloatArray = np.zeros(NUM_JOINTS)
        self._update_body(0.0)

    def _load(self) -> Tuple[FloatArray, FloatArray]:
        """Feet contacts and the joint torques the body weight puts on them."""
        q = self.q.reshape(NUM_LEGS, 3)
        feet, jac = kinematics.forward_and_jacobian(self.geo, q)
        depth = -feet[:, 2]
        lowest = depth.max()
        self.height = max(self.cfg.rest_height, lowest)
        if lowest < self.cfg.rest_height:
            contact = np.zeros(NUM_LEGS, dtype=bool)
        else:
            contact = depth >= lowest - self.cfg.contact_tolerance
        force = np.zeros((NUM_LEGS, 3))
        if contact.any():
            force[contact, 2] = self.cfg.body_mass * GRAVITY / np.count_nonzero(contact)
        self.contact = contact
        self.tau_load = kinematics.joint_torque_from_force(jac, force).reshape(-1)
        return feet, jac

    def step(self, cmd: ValidCommand, dt: float) -> None:
        """Advance by dt (s) under the ValidCommand `cmd`."""
        cfg = self.cfg
        inertia, friction = cfg.joint_inertia, cfg.joint_friction
        # Implicit in the velocity terms: dq_new = (I dq + dt(kp e + kd t_vel + t_trq + load))
        #                                          / (I + dt (kd + b)).
        drive = drive_torque(cmd, self.q)
        dq_new = (inertia * self.dq + dt * (drive + self.tau_load)) / (
            inertia + dt * (cmd.kd + friction))
        tau = drive - cmd.kd * dq_new
        clipped = np.abs(tau) > cfg.effort_limit
        if clipped.any():
            tau = np.clip(tau, -cfg.effort_limit, cfg.effort_limit)
            dq_clip = (inertia * self.dq + dt * (tau + self.tau_load)) / (inertia + dt * friction)
            dq_new = np.where(clipped, dq_clip, dq_new)
        vel_clipped = np.abs(dq_new) > cfg.velocity_limit
        dq_new = np.clip(dq_new, -cfg.velocity_limit, cfg.velocity_limit)
        # A brake holds the joint whatever the command and the load.
        dq_new = np.where(cmd.brake, 0.0, dq_new)
        tau = np.where(cmd.brake, 0.0, tau)
        self.q = self.q + dq_new * dt
        self.dq = dq_new
        self.tau = tau
        self.status = joint_status(cmd, self.q, clipped | vel_clipped, cfg.target_tolerance)
        self._thermal(dt)
        self._power(dt)
        self._update_body(dt)
        self.time += dt

    def _update_body(self, dt: float) -> None:
        feet, jac = self._load()
        v_feet = kinematics.foot_velocity(jac, self.dq.reshape(NUM_LEGS, 3))
        vx, vy, wz = kinematics.body_twist_from_feet(feet, v_feet, self.contact)
        if not self.contact.any():
            vx = vy = wz = 0.0
        old_height = self.position[2]
        self.yaw = (self.yaw + wz * dt + np.pi) % (2.0 * np.pi) - np.pi
        c, s = np.cos(self.yaw), np.sin(self.yaw)
        v_world = np.array([c * vx - s * vy, s * vx + c * vy,
                            (self.height - old_height) / dt if dt > 0.0 else 0.0])
        self.position[:2] += v_world[:2] * dt
        self.position[2] = self.height
        if dt > 0.0:
            # Low-pass the finite difference: the quasi-static model has velocity steps.
            self.accel_world += 0.1 * ((v_world - self.v_world) / dt - self.accel_world)
        self.v_world = v_world
        self.body_twist = (vx, vy, wz)

    def imu(self) -> Imu:
        """
        Return (quaternion xyzw, angular velocity, linear acceleration) in the body frame.

        The accelerometer reads specific force, i.e. body acceleration plus 1 g upwards.
        """
        half = 0.5 * self.yaw
        quat = (0.0, 0.0, float(np.sin(half)), float(np.cos(half)))
        gyro = (0.0, 0.0, float(self.body_twist[2]))
        c, s = np.cos(self.yaw), np.sin(self.yaw)
        ax, ay, az = self.accel_world
        accel = (float(c * ax + s * ay), float(-s * ax + c * ay), float(az + GRAVITY))
        return quat, gyro, accel


ENGINES = ('mujoco', 'simple')


def make_sim(cfg: SimConfig, geo: LegGeometry) -> Union[HardwareSim, 'MujocoSim']:
    """Build the simulated robot of the configured `physics_engine` ('mujoco' or 'simple')."""
    if cfg.physics_engine == 'simple':
        return HardwareSim(cfg, geo)
    if cfg.physics_engine == 'mujoco':
        from .mujoco_physics import MujocoSim    # imported only when chosen
        return MujocoSim(cfg, geo)
    raise ValueError(f'physics_engine must be one of {ENGINES}, not {cfg.physics_engine!r}')
