# SPDX-License-Identifier: Apache-2.0
"""
Simulated HB50 hardware, engine `simple`: quasi-static body on rigid joints.

12 rigid joints, a quasi-static body resting on its feet, IMU and power. Plain Python/numpy so
it can be unit-tested without ROS; bridge_node only wraps it. The MuJoCo engine
(mujoco_physics.py) shares the actuator law, the thermal and the power model defined here.

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

from dataclasses import dataclass

import numpy as np

from . import kinematics
from .layout import EFFORT_LIMIT, NUM_JOINTS, NUM_LEGS, VELOCITY_LIMIT

GRAVITY = 9.81
STATUS_MOTION_ERROR = 1 << 6          # a limit clipped torque or velocity
STATUS_TARGET_REACHED = 1 << 15


@dataclass(frozen=True)
class SimConfig:
    joint_inertia: float = 0.02         # kg*m^2, reflected at the joint
    joint_friction: float = 0.05        # N*m*s/rad, viscous
    effort_limit: float = EFFORT_LIMIT
    velocity_limit: float = VELOCITY_LIMIT
    target_tolerance: float = 0.02      # rad, for the "target reached" bit
    body_mass: float = 15.0             # kg
    rest_height: float = 0.12           # m, hip height when the body lies on the ground
    contact_tolerance: float = 0.01     # m
    ambient_temperature: float = 25.0   # degC
    heat_per_nm2: float = 0.02          # degC/s per (N*m)^2
    cooling_time: float = 60.0          # s, time constant towards ambient
    idle_power: float = 30.0            # W
    copper_loss: float = 0.08           # W per (N*m)^2 per joint
    battery_capacity_wh: float = 500.0
    battery_full_v: float = 50.4
    battery_empty_v: float = 42.0
    battery_resistance: float = 0.05    # ohm
    initial_battery: float = 100.0      # %
    initial_pose: tuple = (0.0, 1.2, -2.6)   # per leg: lying down, body on the ground
    physics_engine: str = 'mujoco'      # 'simple' (this file) or 'mujoco' (MJCF model)
    physics_substeps: int = 4           # MuJoCo steps per loop period (2 kHz at 500 Hz)
    model_file: str = ''                # MJCF path; '' = share/hb50_nodes/models/hb50.xml


def drive_torque(cmd, q):
    """
    PD + feed-forward law without its damping term: kp(t_pos-q) + kd*t_vel + t_trq.

    The full law is tau = drive - kd*dq; each engine integrates the -kd*dq part implicitly.
    """
    return cmd.kp * (cmd.t_pos - q) + cmd.kd * cmd.t_vel + cmd.t_trq


def joint_status(cmd, q, clipped, tolerance):
    """Quick-status words: TARGET_REACHED (kp > 0, |t_pos-q| < tolerance), MOTION_ERROR."""
    reached = (cmd.kp > 0.0) & (np.abs(cmd.t_pos - q) < tolerance)
    return (np.where(reached, STATUS_TARGET_REACHED, 0)
            | np.where(clipped & ~cmd.brake, STATUS_MOTION_ERROR, 0)).astype(np.uint16)


class ActuatorPower:
    """Thermal and power model shared by both engines (state: tau, dq, temperature, battery)."""

    def _init_power(self, cfg):
        self.cfg = cfg
        self.q = np.tile(np.asarray(cfg.initial_pose, dtype=float), NUM_LEGS)
        self.dq = np.zeros(NUM_JOINTS)
        self.tau = np.zeros(NUM_JOINTS)
        self.temperature = np.full(NUM_JOINTS, cfg.ambient_temperature)
        self.status = np.zeros(NUM_JOINTS, dtype=np.uint16)
        self.battery = cfg.initial_battery
        self.bus_i = 0.0
        self.bus_v = self._open_circuit_v()
        self.bus_p = 0.0
        self.energy_j = 0.0
        self.time = 0.0

    def _open_circuit_v(self):
        # Plain floats: this runs every tick, numpy's scalar calls cost more than the maths.
        frac = min(1.0, max(0.0, self.battery / 100.0))
        cfg = self.cfg
        return cfg.battery_empty_v + (cfg.battery_full_v - cfg.battery_empty_v) * frac

    def _thermal(self, dt):
        cfg = self.cfg
        self.temperature += dt * (cfg.heat_per_nm2 * self.tau ** 2
                                  - (self.temperature - cfg.ambient_temperature)
                                  / cfg.cooling_time)

    def _power(self, dt):
        cfg = self.cfg
        tau = self.tau
        power = (cfg.idle_power + float(np.abs(tau * self.dq).sum())
                 + cfg.copper_loss * float(tau.dot(tau)))
        # Terminal voltage sags with the previous current (avoids solving a quadratic).
        self.bus_v = self._open_circuit_v() - cfg.battery_resistance * self.bus_i
        self.bus_i = power / self.bus_v
        self.bus_p = self.bus_v * self.bus_i
        self.energy_j += self.bus_p * dt
        self.battery = max(0.0, self.battery - 100.0 * self.bus_p * dt
                           / (cfg.battery_capacity_wh * 3600.0))

    @property
    def bus_energy_kwh(self):
        return self.energy_j / 3.6e6


class HardwareSim(ActuatorPower):
    """The whole simulated robot; `step(cmd, dt)` advances it by dt."""

    def __init__(self, cfg, geo):
        self._init_power(cfg)
        self.geo = geo
        self.contact = np.zeros(NUM_LEGS, dtype=bool)
        self.height = cfg.rest_height
        self.yaw = 0.0
        self.position = np.zeros(3)
        self.v_world = np.zeros(3)
        self.body_twist = (0.0, 0.0, 0.0)
        self.accel_world = np.zeros(3)
        self.tau_load = np.zeros(NUM_JOINTS)
        self._update_body(0.0)

    def _load(self):
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

    def step(self, cmd, dt):
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

    def _update_body(self, dt):
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

    def imu(self):
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


def make_sim(cfg, geo):
    """Build the simulated robot of the configured `physics_engine` ('mujoco' or 'simple')."""
    if cfg.physics_engine == 'simple':
        return HardwareSim(cfg, geo)
    if cfg.physics_engine == 'mujoco':
        from .mujoco_physics import MujocoSim    # imported only when chosen
        return MujocoSim(cfg, geo)
    raise ValueError(f'physics_engine must be one of {ENGINES}, not {cfg.physics_engine!r}')
