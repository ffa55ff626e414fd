# SPDX-License-Identifier: Apache-2.0
"""
What both HB50 physics engines share: configuration, drive law, status words, thermal, power.

physics.py (engine `simple`) and mujoco_physics.py (engine `mujoco`) both build on this
module, so neither imports the other (physics.make_sim imports mujoco_physics only when it is
chosen).
"""

from dataclasses import dataclass
from typing import Tuple

import numpy as np

from .arrays import BoolArray, FloatArray, StatusArray
from .layout import EFFORT_LIMIT, NUM_JOINTS, NUM_LEGS, VELOCITY_LIMIT
from .validation import ValidCommand

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
    initial_pose: Tuple[float, ...] = (0.0, 1.2, -2.6)   # per leg: lying down, body on the ground
    physics_engine: str = 'mujoco'      # 'simple' (this file) or 'mujoco' (MJCF model)
    physics_substeps: int = 4           # MuJoCo steps per loop period (2 kHz at 500 Hz)
    model_file: str = ''                # MJCF path; '' = share/hb50_nodes/models/hb50.xml


def drive_torque(cmd: ValidCommand, q: FloatArray) -> FloatArray:
    """
    PD + feed-forward law without its damping term: kp(t_pos-q) + kd*t_vel + t_trq.

    The full law is tau = drive - kd*dq; each engine integrates the -kd*dq part implicitly.
    """
    return cmd.kp * (cmd.t_pos - q) + cmd.kd * cmd.t_vel + cmd.t_trq


def joint_status(cmd: ValidCommand, q: FloatArray, clipped: BoolArray,
                 tolerance: float) -> StatusArray:
    """Quick-status words: TARGET_REACHED (kp > 0, |t_pos-q| < tolerance), MOTION_ERROR."""
    reached = (cmd.kp > 0.0) & (np.abs(cmd.t_pos - q) < tolerance)
    return (np.where(reached, STATUS_TARGET_REACHED, 0)
            | np.where(clipped & ~cmd.brake, STATUS_MOTION_ERROR, 0)).astype(np.uint16)


class ActuatorPower:
    """Thermal and power model shared by both engines (state: tau, dq, temperature, battery)."""

    def _init_power(self, cfg: SimConfig) -> None:
        self.cfg = cfg
        self.q: FloatArray = np.tile(np.asarray(cfg.initial_pose, dtype=float), NUM_LEGS)
        self.dq: FloatArray = np.zeros(NUM_JOINTS)
        self.tau: FloatArray = np.zeros(NUM_JOINTS)
        self.temperature: FloatArray = np.full(NUM_JOINTS, cfg.ambient_temperature)
        self.status: StatusArray = np.zeros(NUM_JOINTS, dtype=np.uint16)
        self.battery: float = cfg.initial_battery
        self.bus_i = 0.0
        self.bus_v = self._open_circuit_v()
        self.bus_p = 0.0
        self.energy_j = 0.0
        self.time = 0.0

    def _open_circuit_v(self) -> float:
        # Plain floats: this runs every tick, numpy's scalar calls cost more than the maths.
        frac = min(1.0, max(0.0, self.battery / 100.0))
        cfg = self.cfg
        return cfg.battery_empty_v + (cfg.battery_full_v - cfg.battery_empty_v) * frac

    def _thermal(self, dt: float) -> None:
        cfg = self.cfg
        self.temperature += dt * (cfg.heat_per_nm2 * self.tau ** 2
                                  - (self.temperature - cfg.ambient_temperature)
                                  / cfg.cooling_time)

    def _power(self, dt: float) -> None:
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
    def bus_energy_kwh(self) -> float:
        return self.energy_j / 3.6e6
