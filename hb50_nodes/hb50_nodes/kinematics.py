# SPDX-License-Identifier: Apache-2.0
"""
Kinematics of the 3-DoF HB50 leg, all four legs at once with numpy.

Abduction about x, hip and knee about y. Body frame: x forward, y left, z up, origin at the
centre of the hips.

Joint angles are arrays of shape (4, 3) in leg order FR, FL, RL, RR.
"""

from dataclasses import dataclass
from functools import cached_property

import numpy as np

from .layout import LEG_FRONT, LEG_SIDE

_SIDE = np.array(LEG_SIDE)
_FRONT = np.array(LEG_FRONT)


@dataclass(frozen=True)
class LegGeometry:
    """Link lengths (m); defaults are this workspace's choice (the vendor publishes none)."""

    hip_x: float = 0.25      # hip joint distance from the body centre along x
    hip_y: float = 0.08      # hip joint distance from the body centre along y
    l_abad: float = 0.08     # abduction offset: hip flexion axis to leg plane, along y
    l_thigh: float = 0.21
    l_shank: float = 0.21

    @cached_property
    def hips(self):
        """Hip joint positions in the body frame, shape (4, 3); do not modify."""
        return np.stack([_FRONT * self.hip_x, _SIDE * self.hip_y, np.zeros(4)], axis=1)


def forward(geo, q):
    """Foot positions in the body frame, shape (4, 3)."""
    q0, q1, q2 = q[:, 0], q[:, 1], q[:, 2]
    length = geo.l_thigh * np.cos(q1) + geo.l_shank * np.cos(q1 + q2)
    x = -geo.l_thigh * np.sin(q1) - geo.l_shank * np.sin(q1 + q2)
    s0, c0 = np.sin(q0), np.cos(q0)
    out = geo.hips.copy()
    out[:, 0] += x
    out[:, 1] += _SIDE * geo.l_abad * c0 + length * s0
    out[:, 2] += _SIDE * geo.l_abad * s0 - length * c0
    return out


def jacobian(geo, q):
    """d(foot position)/dq per leg, shape (4, 3, 3): [leg, xyz, joint]."""
    q0, q1, q2 = q[:, 0], q[:, 1], q[:, 2]
    s0, c0 = np.sin(q0), np.cos(q0)
    s12, c12 = np.sin(q1 + q2), np.cos(q1 + q2)
    length = geo.l_thigh * np.cos(q1) + geo.l_shank * c12
    x = -geo.l_thigh * np.sin(q1) - geo.l_shank * s12
    jac = np.empty((q.shape[0], 3, 3))
    jac[:, 0, 0] = 0.0
    jac[:, 0, 1] = -length
    jac[:, 0, 2] = -geo.l_shank * c12
    jac[:, 1, 0] = -_SIDE * geo.l_abad * s0 + length * c0
    jac[:, 1, 1] = x * s0
    jac[:, 1, 2] = -geo.l_shank * s12 * s0
    jac[:, 2, 0] = _SIDE * geo.l_abad * c0 + length * s0
    jac[:, 2, 1] = -x * c0
    jac[:, 2, 2] = geo.l_shank * s12 * c0
    return jac


def inverse(geo, p):
    """
    Return the joint angles (4, 3) that put each foot at p (4, 3, body frame).

    Knee bent backwards (q2 < 0). Unreachable targets are projected onto the workspace
    boundary.
    """
    rel = p - geo.hips
    x, y, z = rel[:, 0], rel[:, 1], rel[:, 2]
    d2 = y * y + z * z
    length = np.sqrt(np.maximum(d2 - geo.l_abad ** 2, 1e-9))
    q0 = np.arctan2(z, y) - np.arctan2(-length, _SIDE * geo.l_abad)
    q0 = (q0 + np.pi) % (2.0 * np.pi) - np.pi
    c2 = (x * x + length * length - geo.l_thigh ** 2 - geo.l_shank ** 2) / (
        2.0 * geo.l_thigh * geo.l_shank)
    q2 = -np.arccos(np.clip(c2, -1.0, 1.0))
    a = geo.l_thigh + geo.l_shank * np.cos(q2)
    b = geo.l_shank * np.sin(q2)
    q1 = np.arctan2(-x, length) - np.arctan2(b, a)
    return np.stack([q0, q1, q2], axis=1)


def foot_velocity(jac, dq):
    """Foot velocities (4, 3) from joint velocities (4, 3)."""
    return np.einsum('lij,lj->li', jac, dq)


def joint_torque_from_force(jac, force):
    """Joint torques (4, 3) that an external foot force (4, 3) produces: J^T F."""
    return np.einsum('lij,li->lj', jac, force)


def foot_force_from_torque(jac, tau):
    """
    Return the ground reaction force on each foot (4, 3) that the torques tau (4, 3) balance.

    Statically the motors cancel the load, tau = -J^T F, so F = -J^-T tau. A singular leg
    (fully stretched) gets a least-squares answer instead of an exception.
    """
    try:
        return -np.linalg.solve(np.transpose(jac, (0, 2, 1)), tau[..., None])[..., 0]
    except np.linalg.LinAlgError:
        return np.stack([-np.linalg.lstsq(j.T, t, rcond=None)[0] for j, t in zip(jac, tau)])


def body_twist_from_feet(p, v, mask):
    """
    Return the planar body twist (vx, vy, wz) from feet that do not slip (mask True).

    A planted foot moves in the body frame with v_i = -(v + w x p_i). Least squares over the
    planted feet; (0, 0, 0) when fewer than one foot is planted.
    """
    n = int(np.count_nonzero(mask))
    if n == 0:
        return 0.0, 0.0, 0.0
    pm, vm = p[mask, :2], v[mask, :2]
    mp = pm.sum(axis=0) / n
    mv = vm.sum(axis=0) / n
    dp, dv = pm - mp, vm - mv
    den = float((dp * dp).sum())
    wz = 0.0
    if n >= 2 and den > 1e-9:
        wz = float((dv[:, 0] * dp[:, 1] - dv[:, 1] * dp[:, 0]).sum()) / den
    return float(-mv[0] + wz * mp[1]), float(-mv[1] - wz * mp[0]), wz
