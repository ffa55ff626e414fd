# SPDX-License-Identifier: Apache-2.0
"""
A URDF's joint tree as TF transforms (what robot_state_publisher computes), in plain Python.

UrdfTree parses the URDF text a node publishes on robot_description, so the transforms it
sends and the description a viewer draws come from the same bytes. Fixed joints give the
/tf_static transforms, revolute, continuous and prismatic joints the /tf ones at given
joint positions. Frame ids carry an optional prefix (`robot1/`) to keep two robots apart.
"""

from dataclasses import dataclass
import math
from typing import Tuple
import xml.etree.ElementTree as ET

from geometry_msgs.msg import TransformStamped

MOVING = ('revolute', 'continuous', 'prismatic')
IDENTITY = (0.0, 0.0, 0.0, 1.0)


@dataclass(frozen=True)
class Joint:
    """One URDF joint; origin xyz (m) and rotation quat (x, y, z, w) in the parent link."""

    name: str
    kind: str
    parent: str
    child: str
    xyz: Tuple[float, float, float]
    quat: Tuple[float, float, float, float]
    axis: Tuple[float, float, float]


def _floats(text, default):
    return tuple(float(v) for v in text.split()) if text else default


def rpy_to_quat(roll, pitch, yaw):
    """Quaternion (x, y, z, w) of URDF's fixed-axis rpy (R = Rz(yaw) Ry(pitch) Rx(roll))."""
    cr, sr = math.cos(roll / 2), math.sin(roll / 2)
    cp, sp = math.cos(pitch / 2), math.sin(pitch / 2)
    cy, sy = math.cos(yaw / 2), math.sin(yaw / 2)
    return (sr * cp * cy - cr * sp * sy, cr * sp * cy + sr * cp * sy,
            cr * cp * sy - sr * sp * cy, cr * cp * cy + sr * sp * sy)


def quat_multiply(a, b):
    """Hamilton product a*b of quaternions (x, y, z, w)."""
    ax, ay, az, aw = a
    bx, by, bz, bw = b
    return (aw * bx + ax * bw + ay * bz - az * by, aw * by - ax * bz + ay * bw + az * bx,
            aw * bz + ax * by - ay * bx + az * bw, aw * bw - ax * bx - ay * by - az * bz)


def axis_rotation(axis, angle):
    """Quaternion (x, y, z, w) of a rotation by `angle` (rad) about the unit `axis`."""
    s = math.sin(angle / 2.0)
    return axis[0] * s, axis[1] * s, axis[2] * s, math.cos(angle / 2.0)


def parse(urdf_text):
    """Return the joints of a URDF text, in document order."""
    root = ET.fromstring(urdf_text)
    joints = []
    for el in root.findall('joint'):
        origin = el.find('origin')
        xyz = _floats(origin.get('xyz') if origin is not None else None, (0.0, 0.0, 0.0))
        rpy = _floats(origin.get('rpy') if origin is not None else None, (0.0, 0.0, 0.0))
        axis_el = el.find('axis')
        axis = _floats(axis_el.get('xyz') if axis_el is not None else None, (1.0, 0.0, 0.0))
        norm = math.sqrt(sum(a * a for a in axis)) or 1.0
        joints.append(Joint(el.get('name'), el.get('type'), el.find('parent').get('link'),
                            el.find('child').get('link'), xyz, rpy_to_quat(*rpy),
                            tuple(a / norm for a in axis)))
    return joints


def transform(stamp, parent, child, xyz, quat):
    """Return a geometry_msgs/TransformStamped."""
    t = TransformStamped()
    t.header.stamp = stamp
    t.header.frame_id = parent
    t.child_frame_id = child
    t.transform.translation.x, t.transform.translation.y, t.transform.translation.z = xyz
    (t.transform.rotation.x, t.transform.rotation.y, t.transform.rotation.z,
     t.transform.rotation.w) = quat
    return t


class UrdfTree:
    """The transforms of a URDF's joints, frame ids prefixed with `frame_prefix`."""

    def __init__(self, urdf_text, frame_prefix=''):
        self.joints = parse(urdf_text)
        self.prefix = frame_prefix
        self.moving = [j for j in self.joints if j.kind in MOVING]
        self.fixed = [j for j in self.joints if j.kind == 'fixed']
        self.joint_names = tuple(j.name for j in self.moving)

    def frame(self, link):
        """Return the frame id of `link`."""
        return self.prefix + link

    def static_transforms(self, stamp):
        """Return the fixed joints' transforms (for /tf_static)."""
        return [transform(stamp, self.frame(j.parent), self.frame(j.child), j.xyz, j.quat)
                for j in self.fixed]

    def moving_transforms(self, stamp, positions):
        """Return the moving joints' transforms at `positions` ({joint name: rad or m})."""
        out = []
        for j in self.moving:
            q = positions[j.name]
            if j.kind == 'prismatic':
                xyz = tuple(o + a * q for o, a in zip(j.xyz, j.axis))
                out.append(transform(stamp, self.frame(j.parent), self.frame(j.child), xyz,
                                     j.quat))
            else:
                out.append(transform(stamp, self.frame(j.parent), self.frame(j.child), j.xyz,
                                     quat_multiply(j.quat, axis_rotation(j.axis, q))))
        return out
