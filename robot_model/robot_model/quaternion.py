# SPDX-License-Identifier: Apache-2.0
"""
Unit quaternions in one component order, (x, y, z, w) as in geometry_msgs/Quaternion.

Euler angles are URDF's fixed-axis roll, pitch, yaw: R = Rz(yaw) Ry(pitch) Rx(roll), the
same rotation as the intrinsic ZYX (yaw, pitch, roll) convention.

MuJoCo stores (w, x, y, z): convert at the call site, by name, never by position:

    w, x, y, z = data.qpos[3:7]
    roll, pitch, yaw = to_rpy((x, y, z, w))

Plain Python floats (no numpy): one quaternion at a time is cheaper without per-call array
overhead, and the results do not depend on numpy's vectorised kernels.
"""

import math
from typing import Tuple

# (x, y, z, w)
Quaternion = Tuple[float, float, float, float]
Vector3 = Tuple[float, float, float]

IDENTITY: Quaternion = (0.0, 0.0, 0.0, 1.0)


def to_rpy(q: Quaternion) -> Vector3:
    """Return (roll, pitch, yaw) in rad of the unit quaternion q = (x, y, z, w)."""
    x, y, z, w = q
    roll = math.atan2(2.0 * (w * x + y * z), 1.0 - 2.0 * (x * x + y * y))
    pitch = math.asin(min(1.0, max(-1.0, 2.0 * (w * y - z * x))))
    yaw = math.atan2(2.0 * (w * z + x * y), 1.0 - 2.0 * (y * y + z * z))
    return roll, pitch, yaw


def from_rpy(roll: float, pitch: float, yaw: float) -> Quaternion:
    """Return the quaternion (x, y, z, w) of R = Rz(yaw) Ry(pitch) Rx(roll)."""
    cr, sr = math.cos(roll / 2), math.sin(roll / 2)
    cp, sp = math.cos(pitch / 2), math.sin(pitch / 2)
    cy, sy = math.cos(yaw / 2), math.sin(yaw / 2)
    return (sr * cp * cy - cr * sp * sy, cr * sp * cy + sr * cp * sy,
            cr * cp * sy - sr * sp * cy, cr * cp * cy + sr * sp * sy)


def multiply(a: Quaternion, b: Quaternion) -> Quaternion:
    """Return the Hamilton product a*b (rotation b first, then a)."""
    ax, ay, az, aw = a
    bx, by, bz, bw = b
    return (aw * bx + ax * bw + ay * bz - az * by, aw * by - ax * bz + ay * bw + az * bx,
            aw * bz + ax * by - ay * bx + az * bw, aw * bw - ax * bx - ay * by - az * bz)


def axis_rotation(axis: Vector3, angle: float) -> Quaternion:
    """Return the rotation by `angle` (rad) about the unit vector `axis`."""
    s = math.sin(angle / 2.0)
    return axis[0] * s, axis[1] * s, axis[2] * s, math.cos(angle / 2.0)


def rotate(q: Quaternion, v: Vector3) -> Vector3:
    """Return the vector `v` rotated by the unit quaternion q."""
    x, y, z, w = q
    tx, ty, tz = 2 * (y * v[2] - z * v[1]), 2 * (z * v[0] - x * v[2]), 2 * (x * v[1] - y * v[0])
    return (v[0] + w * tx + y * tz - z * ty, v[1] + w * ty + z * tx - x * tz,
            v[2] + w * tz + x * ty - y * tx)
