# SPDX-License-Identifier: Apache-2.0
"""Motion generation for control_node: velocity-command scaling, smooth stand-up, trot."""

from dataclasses import dataclass
import math
from typing import Sequence

import numpy as np

from .arrays import BoolArray, FloatArray

# Trot: diagonal pairs FR+RL and FL+RR alternate, half a period apart.
TROT_PHASE_OFFSET = np.array([0.0, 0.5, 0.0, 0.5])


@dataclass(frozen=True)
class VelocityCommand:
    """A /hb50/velocity_command in SI units after clamping and scaling."""

    vx: float = 0.0          # m/s, forward
    vy: float = 0.0          # m/s, left
    height: float = 0.0      # normalised walking-height offset in [-1, 1]; 0 = nominal
    roll: float = 0.0        # rad, body roll set-point (normalised x tilt_range)
    pitch: float = 0.0       # rad, body pitch set-point (normalised x tilt_range)
    yaw_rate: float = 0.0    # rad/s

    @property
    def moving(self) -> bool:
        return max(abs(self.vx), abs(self.vy), abs(self.yaw_rate)) > 1e-3


class InvalidVelocityCommand(ValueError):
    """A Twist with a NaN or infinite component; it is ignored as a whole."""


def _clamp(value: float) -> float:
    return min(1.0, max(-1.0, float(value)))


def scale_velocity(linear: Sequence[float], angular: Sequence[float], cmd_vel_lin: float,
                   cmd_vel_ang: float, tilt_range: float) -> VelocityCommand:
    """
    Clamp each normalised component to [-1, 1], then scale it.

    linear x/y by cmd_vel_lin (m/s), angular z by cmd_vel_ang (rad/s), angular x/y (roll,
    pitch: body tilt angles) by tilt_range (rad); linear.z (walking height) stays normalised.
    """
    values = tuple(linear) + tuple(angular)
    if not all(math.isfinite(v) for v in values):
        raise InvalidVelocityCommand(f'non-finite component in {values}')
    lx, ly, lz = (_clamp(v) for v in linear)
    ax, ay, az = (_clamp(v) for v in angular)
    return VelocityCommand(lx * cmd_vel_lin, ly * cmd_vel_lin, lz,
                           ax * tilt_range, ay * tilt_range, az * cmd_vel_ang)


def smoothstep(s: float) -> float:
    """C1-smooth 0 -> 1 ramp for s in [0, 1] (zero velocity at both ends)."""
    s = min(1.0, max(0.0, s))
    return s * s * (3.0 - 2.0 * s)


class Trot:
    """
    Foot targets of a trot in the body frame.

    Stance feet slide backwards at the body velocity (so the body moves at the commanded
    twist), swing feet return in an arch.
    """

    def __init__(self, period: float, step_height: float) -> None:
        self.period = period
        self.step_height = step_height
        self.phase = 0.0

    def reset(self) -> None:
        self.phase = 0.0

    def advance(self, dt: float) -> bool:
        """Advance the clock; True when a pair of feet just touched down (all feet down)."""
        old = self.phase
        self.phase = (self.phase + dt / self.period) % 1.0
        return (old < 0.5 <= self.phase) or self.phase < old

    def stance(self) -> BoolArray:
        return ((self.phase + TROT_PHASE_OFFSET) % 1.0) < 0.5

    def feet(self, nominal: FloatArray, vx: float, vy: float, wz: float) -> FloatArray:
        """Foot targets (4, 3) around the nominal stance `nominal` (4, 3)."""
        leg_phase = (self.phase + TROT_PHASE_OFFSET) % 1.0
        # Velocity of the body at each foot: v + w x p.
        ux = vx - wz * nominal[:, 1]
        uy = vy + wz * nominal[:, 0]
        half = 0.5 * self.period
        stance = leg_phase < 0.5
        s = np.where(stance, leg_phase, leg_phase - 0.5) / 0.5
        along = np.where(stance, 0.5 - s, -0.5 + 0.5 * (1.0 - np.cos(np.pi * s)))
        lift = np.where(stance, 0.0, self.step_height * np.sin(np.pi * s))
        out = nominal.copy()
        out[:, 0] += ux * half * along
        out[:, 1] += uy * half * along
        out[:, 2] += lift
        return out
