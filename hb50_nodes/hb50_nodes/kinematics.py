# SPDX-License-Identifier: Apache-2.0
"""
Kinematics of the 3-DoF HB50 leg, all four legs at once with numpy.

Abduction about x, hip and knee about y. Body frame: x forward, y left, z up, origin at the
centre of the hips.

Joint angles are arrays of shape (4, 3) in leg order FR, FL, RL, RR.
"""

from dataclasses import dataclass
from functools import cached_property
import math
from typing import cast, Iterator, List, Sequence, Tuple, TypeAlias

import numpy as np
import numpy.typing as npt
from robot_model.quaternion import Vector3

from .arrays import FloatArray
from .layout import LEG_FRONT, LEG_SIDE

_SIDE = np.array(LEG_SIDE)
_FRONT = np.array(LEG_FRONT)

# Per leg: (hip position, side * l_abad)
LegOffset: TypeAlias = Tuple[Tuple[float, ...], float]
# Per leg: (hip, side * l_abad, sin q0, cos q0, sin q12, cos q12, length, x), see _legs
LegTerms: TypeAlias = Tuple[Tuple[float, ...], float, float, float, float, float, float, float]
Rows3: TypeAlias = Tuple[Vector3, Vector3, Vector3]
# Per leg: (foot position, foot velocity, ground reaction force)
LegState: TypeAlias = Tuple[Vector3, Vector3, Tuple[float, ...]]
# A planted foot: (px, py, vx, vy)
Planted: TypeAlias = Tuple[float, float, float, float]


@dataclass(frozen=True)
class LegGeometry:
    """Link lengths (m); defaults are this workspace's choice (the vendor publishes none)."""

    hip_x: float = 0.25      # hip joint distance from the body centre along x
    hip_y: float = 0.08      # hip joint distance from the body centre along y
    l_abad: float = 0.08     # abduction offset: hip flexion axis to leg plane, along y
    l_thigh: float = 0.21
    l_shank: float = 0.21

    @cached_property
    def hips(self) -> FloatArray:
        """Hip joint positions in the body frame, shape (4, 3); do not modify."""
        return np.stack([_FRONT * self.hip_x, _SIDE * self.hip_y, np.zeros(4)], axis=1)

    @cached_property
    def leg_offsets(self) -> Tuple[LegOffset, ...]:
        """Per leg: (hip position, side * l_abad) in plain floats; do not modify."""
        return tuple((tuple(hip), side * self.l_abad)
                     for hip, side in zip(self.hips.tolist(), LEG_SIDE))


def _legs(geo: LegGeometry, q: npt.ArrayLike) -> Iterator[LegTerms]:
    """
    Per leg: (hip x, y, z, side * l_abad, q0 sine/cosine, ..., length, x) in plain floats.

    Four legs of three joints: plain floats cost a fraction of numpy's per-call overhead on
    arrays this small (README, "Performance"); the formulas and their order are the same.
    """
    return _leg_terms(geo, np.asarray(q, dtype=float).reshape(-1).tolist())


def _leg_terms(geo: LegGeometry, q: Sequence[float]) -> Iterator[LegTerms]:
    """_legs of joint angles given as a flat sequence of 12 plain floats."""
    lt, ls = geo.l_thigh, geo.l_shank
    sin, cos = math.sin, math.cos
    i = 0
    for hip, sla in geo.leg_offsets:
        q0, q1, q2 = q[i], q[i + 1], q[i + 2]
        i += 3
        s12, c12 = sin(q1 + q2), cos(q1 + q2)
        length = lt * cos(q1) + ls * c12
        x = -lt * sin(q1) - ls * s12
        yield hip, sla, sin(q0), cos(q0), s12, c12, length, x


def _forward_row(hip: Sequence[float], sla: float, s0: float, c0: float, length: float,
                 x: float) -> Vector3:
    """Foot position of one leg; sla: its side (+1 left, -1 right) times l_abad."""
    return hip[0] + x, hip[1] + (sla * c0 + length * s0), hip[2] + (sla * s0 - length * c0)


def _jacobian_rows(ls: float, sla: float, s0: float, c0: float, s12: float, c12: float,
                   length: float, x: float) -> Rows3:
    """d(foot position)/dq of one leg, rows x, y, z; ls: l_shank."""
    return ((0.0, -length, -ls * c12),
            (-sla * s0 + length * c0, x * s0, -ls * s12 * s0),
            (sla * c0 + length * s0, -x * c0, ls * s12 * c0))


def leg_states(geo: LegGeometry, q: Sequence[float], dq: Sequence[float],
               tau: Sequence[float]) -> List[LegState]:
    """
    Per leg (FR, FL, RL, RR): (foot position, foot velocity, ground reaction force).

    forward, foot_velocity and foot_force_from_torque of one leg at a time, in plain floats
    (tuples of three): q, dq and tau are flat sequences of 12 floats in leg order. The
    per-tick form for control_core's estimator: at 500 Hz numpy's per-call overhead on 3x3
    blocks costs several times the arithmetic. Returns a list of four (p, v, f).
    """
    out: List[LegState] = []
    i = 0
    ls = geo.l_shank
    for hip, sla, s0, c0, s12, c12, length, x in _leg_terms(geo, q):
        jac = _jacobian_rows(ls, sla, s0, c0, s12, c12, length, x)
        (_, j01, j02), (j10, j11, j12), (j20, j21, j22) = jac      # J[0][0] is always 0
        d0, d1, d2 = dq[i], dq[i + 1], dq[i + 2]
        v = (j01 * d1 + j02 * d2, j10 * d0 + j11 * d1 + j12 * d2,
             j20 * d0 + j21 * d1 + j22 * d2)
        # F = -J^-T tau, with J^-T = cofactor(J) / det(J); m0k: cofactors of row 0.
        m00, m01, m02 = j11 * j22 - j12 * j21, j12 * j20 - j10 * j22, j10 * j21 - j11 * j20
        det = j01 * m01 + j02 * m02
        t0, t1, t2 = tau[i], tau[i + 1], tau[i + 2]
        if det == 0.0:      # a fully stretched leg: least squares, as numpy would
            f = tuple((-np.linalg.lstsq(np.transpose(jac), np.array((t0, t1, t2)),
                                        rcond=None)[0]).tolist())
        else:
            inv = -1.0 / det
            f = ((m00 * t0 + m01 * t1 + m02 * t2) * inv,
                 ((j02 * j21 - j01 * j22) * t0 - j02 * j20 * t1 + j01 * j20 * t2) * inv,
                 ((j01 * j12 - j02 * j11) * t0 + j02 * j10 * t1 - j01 * j10 * t2) * inv)
        out.append((_forward_row(hip, sla, s0, c0, length, x), v, f))
        i += 3
    return out


def forward(geo: LegGeometry, q: npt.ArrayLike) -> FloatArray:
    """Foot positions in the body frame, shape (4, 3)."""
    return np.array([_forward_row(hip, sla, s0, c0, length, x)
                     for hip, sla, s0, c0, _, _, length, x in _legs(geo, q)])


def jacobian(geo: LegGeometry, q: npt.ArrayLike) -> FloatArray:
    """d(foot position)/dq per leg, shape (4, 3, 3): [leg, xyz, joint]."""
    ls = geo.l_shank
    return np.array([_jacobian_rows(ls, sla, s0, c0, s12, c12, length, x)
                     for _, sla, s0, c0, s12, c12, length, x in _legs(geo, q)])


def forward_and_jacobian(geo: LegGeometry,
                         q: npt.ArrayLike) -> Tuple[FloatArray, FloatArray]:
    """Return forward(geo, q) and jacobian(geo, q) from one evaluation of the sines/cosines."""
    feet: List[Vector3] = []
    jac: List[Rows3] = []
    ls = geo.l_shank
    for hip, sla, s0, c0, s12, c12, length, x in _legs(geo, q):
        feet.append(_forward_row(hip, sla, s0, c0, length, x))
        jac.append(_jacobian_rows(ls, sla, s0, c0, s12, c12, length, x))
    return np.array(feet), np.array(jac)


def inverse(geo: LegGeometry, p: npt.ArrayLike) -> FloatArray:
    """
    Return the joint angles (4, 3) that put each foot at p (4, 3, body frame).

    Knee bent backwards (q2 < 0). Unreachable targets are projected onto the workspace
    boundary.
    """
    out: List[Vector3] = []
    la, lt, ls = geo.l_abad, geo.l_thigh, geo.l_shank
    for (px, py, pz), side, (hx, hy, hz) in zip(np.asarray(p, dtype=float).tolist(), LEG_SIDE,
                                                geo.hips.tolist()):
        x, y, z = px - hx, py - hy, pz - hz
        d2 = y * y + z * z
        length = math.sqrt(max(d2 - la ** 2, 1e-9))
        q0 = math.atan2(z, y) - math.atan2(-length, side * la)
        q0 = (q0 + math.pi) % (2.0 * math.pi) - math.pi
        c2 = (x * x + length * length - lt ** 2 - ls ** 2) / (2.0 * lt * ls)
        q2 = -math.acos(min(1.0, max(-1.0, c2)))
        a = lt + ls * math.cos(q2)
        b = ls * math.sin(q2)
        out.append((q0, math.atan2(-x, length) - math.atan2(b, a), q2))
    return np.array(out)


def foot_velocity(jac: FloatArray, dq: FloatArray) -> FloatArray:
    """Foot velocities (4, 3) from joint velocities (4, 3)."""
    v: FloatArray = np.einsum('lij,lj->li', jac, dq)
    return v


def joint_torque_from_force(jac: FloatArray, force: FloatArray) -> FloatArray:
    """Joint torques (4, 3) that an external foot force (4, 3) produces: J^T F."""
    tau: FloatArray = np.einsum('lij,li->lj', jac, force)
    return tau


def foot_force_from_torque(jac: FloatArray, tau: FloatArray) -> FloatArray:
    """
    Return the ground reaction force on each foot (4, 3) that the torques tau (4, 3) balance.

    Statically the motors cancel the load, tau = -J^T F, so F = -J^-T tau. A singular leg
    (fully stretched) gets a least-squares answer instead of an exception.
    """
    try:
        return cast(FloatArray,
                    -np.linalg.solve(np.transpose(jac, (0, 2, 1)), tau[..., None])[..., 0])
    except np.linalg.LinAlgError:
        return cast(FloatArray, np.stack([-np.linalg.lstsq(j.T, t, rcond=None)[0]
                                          for j, t in zip(jac, tau)]))


def body_twist_from_feet(p: npt.ArrayLike, v: npt.ArrayLike,
                         mask: npt.ArrayLike) -> Vector3:
    """
    Return the planar body twist (vx, vy, wz) from feet that do not slip (mask True).

    A planted foot moves in the body frame with v_i = -(v + w x p_i). Least squares over the
    planted feet; (0, 0, 0) when fewer than one foot is planted.
    """
    planted = [(pi[0], pi[1], vi[0], vi[1]) for pi, vi, m in zip(
        np.asarray(p).tolist(), np.asarray(v).tolist(), np.asarray(mask).tolist()) if m]
    return planar_twist(planted)


def planar_twist(planted: Sequence[Planted]) -> Vector3:
    """body_twist_from_feet of the planted feet given as (px, py, vx, vy) plain floats."""
    n = len(planted)
    if n == 0:
        return 0.0, 0.0, 0.0
    mpx = sum(f[0] for f in planted) / n
    mpy = sum(f[1] for f in planted) / n
    mvx = sum(f[2] for f in planted) / n
    mvy = sum(f[3] for f in planted) / n
    dev = [(px - mpx, py - mpy, vx - mvx, vy - mvy) for px, py, vx, vy in planted]
    den = sum(dx * dx + dy * dy for dx, dy, _, _ in dev)
    wz = 0.0
    if n >= 2 and den > 1e-9:
        wz = sum(dvx * dy - dvy * dx for dx, dy, dvx, dvy in dev) / den
    return float(-mvx + wz * mpy), float(-mvy - wz * mpx), wz
