# SPDX-License-Identifier: Apache-2.0
"""
The `simple` physics engine, and its IMU: the configured static attitude.

Each joint a rigid inertia with viscous friction on a fixed base, no gravity, no coupling,
integrated implicitly (backward Euler), so any accepted gain is stable; positions stop dead
at the joint limits.
"""

import math
from typing import Any, Optional, Sequence

import numpy as np

from .model_config import ModelConfig
from .physics import FloatArray, ImuReading, JointLists

GRAVITY = 9.80665


class SimplePhysics:
    """Independent joints: inertia + viscous friction, no gravity, implicit PD."""

    name = 'simple'

    def __init__(self, cfg: ModelConfig, limits: Sequence[Any]) -> None:
        """Joints with the position and torque limits of `limits`, at rest at 0."""
        n = len(limits)
        self.cfg = cfg
        self.q_min = np.array([j.q_min for j in limits])
        self.q_max = np.array([j.q_max for j in limits])
        self.tau_max = np.array([j.tau_max for j in limits])
        self.q: FloatArray = np.zeros(n)
        self.dq: FloatArray = np.zeros(n)
        self.ddq: FloatArray = np.zeros(n)
        self.tau: FloatArray = np.zeros(n)

    def step(self, kp: FloatArray, kd: FloatArray, q_des: FloatArray, dq_des: FloatArray,
             ff: FloatArray, dt: float) -> None:
        """One step of dt with the given per-joint law."""
        inertia, b = self.cfg.joint_inertia, self.cfg.joint_friction
        # Backward Euler of I*ddq = ff + kp*(q_des - q) + kd*(dq_des - dq) - b*dq.
        rhs = inertia * self.dq / dt + ff + kp * (q_des - self.q) + kd * dq_des
        dq_new = rhs / (inertia / dt + kp * dt + kd + b)
        tau = ff + kp * (q_des - (self.q + dt * dq_new)) + kd * (dq_des - dq_new)
        saturated = np.abs(tau) > self.tau_max
        if saturated.any():
            # A saturated drive delivers a constant torque: integrate that explicitly.
            tau = np.clip(tau, -self.tau_max, self.tau_max)
            dq_sat = (inertia * self.dq / dt + tau) / (inertia / dt + b)
            dq_new = np.where(saturated, dq_sat, dq_new)
        q_new = self.q + dt * dq_new
        # Hard stops: the joint stops dead at its limit.
        hit = (q_new < self.q_min) | (q_new > self.q_max)
        q_new = np.clip(q_new, self.q_min, self.q_max)
        dq_new = np.where(hit, 0.0, dq_new)
        self.ddq = (dq_new - self.dq) / dt
        self.q, self.dq, self.tau = q_new, dq_new, tau

    def set_law(self, kp: FloatArray, kd: FloatArray, q_des: FloatArray, dq_des: FloatArray,
                ff: FloatArray) -> None:
        """Hold the per-joint law (arrays) that advance() applies until the next call."""
        self._law = (kp, kd, q_des, dq_des, ff)

    def advance(self, dt: float) -> None:
        """One step of dt with the law of the last set_law."""
        self.step(*self._law, dt)

    def joint_lists(self) -> JointLists:
        """Return (q, dq, ddq, tau) as lists of floats."""
        return self.q.tolist(), self.dq.tolist(), self.ddq.tolist(), self.tau.tolist()

    def imu(self) -> Optional[ImuReading]:
        """Return None: the model reports the configured static attitude (static_imu)."""
        return None


def static_imu(ypr: Sequence[float]) -> tuple[list[float], list[float], list[float]]:
    """
    (quaternion wxyz, accelerometer, ypr) of the pelvis at rest with attitude `ypr`.

    The accelerometer reads the reaction to gravity, R^T * (0, 0, g), with R the ZYX (yaw,
    pitch, roll) rotation of the quaternion.
    """
    yaw, pitch, roll = (float(a) for a in ypr)
    cy, sy = math.cos(yaw / 2), math.sin(yaw / 2)
    cp, sp = math.cos(pitch / 2), math.sin(pitch / 2)
    cr, sr = math.cos(roll / 2), math.sin(roll / 2)
    quat = [cr * cp * cy + sr * sp * sy, sr * cp * cy - cr * sp * sy,
            cr * sp * cy + sr * cp * sy, cr * cp * sy - sr * sp * cy]
    acc = [-GRAVITY * math.sin(pitch), GRAVITY * math.cos(pitch) * math.sin(roll),
           GRAVITY * math.cos(pitch) * math.cos(roll)]
    return quat, acc, [yaw, pitch, roll]
