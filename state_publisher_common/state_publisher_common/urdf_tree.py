# SPDX-License-Identifier: Apache-2.0
"""
A URDF's joint tree as TF transforms (what robot_state_publisher computes), in plain Python.

UrdfTree parses the URDF text a node publishes on robot_description, so the transforms it
sends and the description a viewer draws come from the same bytes. Fixed joints give the
/tf_static transforms, revolute, continuous and prismatic joints the /tf ones at given
joint positions. Frame ids carry an optional prefix (`robot1/`) to keep two robots apart.
"""

import math
from typing import List, Mapping, Optional
import xml.etree.ElementTree as ET

from geometry_msgs.msg import TransformStamped
from robot_model.quaternion import axis_rotation, from_rpy, multiply, Quaternion, Vector3
from robot_model.urdf import Joint

__all__ = ['Joint', 'MOVING', 'parse', 'transform', 'UrdfTree']

MOVING = ('revolute', 'continuous', 'prismatic')


def _floats(text: Optional[str], default: Vector3) -> Vector3:
    if not text:
        return default
    x, y, z = (float(v) for v in text.split())
    return x, y, z


def _link(el: ET.Element, tag: str) -> str:
    found = el.find(tag)
    if found is None:
        raise ValueError(f'joint {el.get("name")} has no <{tag}>')
    return str(found.get('link'))


def parse(urdf_text: str) -> List[Joint]:
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
        joints.append(Joint(str(el.get('name')), str(el.get('type')), _link(el, 'parent'),
                            _link(el, 'child'), xyz, from_rpy(*rpy),
                            (axis[0] / norm, axis[1] / norm, axis[2] / norm)))
    return joints


def transform(stamp: object, parent: str, child: str, xyz: Vector3,
              quat: Quaternion) -> TransformStamped:
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

    def __init__(self, urdf_text: str, frame_prefix: str = '') -> None:
        self.joints = parse(urdf_text)
        self.prefix = frame_prefix
        self.moving = [j for j in self.joints if j.kind in MOVING]
        self.fixed = [j for j in self.joints if j.kind == 'fixed']
        self.joint_names = tuple(j.name for j in self.moving)

    def frame(self, link: str) -> str:
        """Return the frame id of `link`."""
        return self.prefix + link

    def static_transforms(self, stamp: object) -> List[TransformStamped]:
        """Return the fixed joints' transforms (for /tf_static)."""
        return [transform(stamp, self.frame(j.parent), self.frame(j.child), j.xyz, j.quat)
                for j in self.fixed]

    def moving_transforms(self, stamp: object,
                          positions: Mapping[str, float]) -> List[TransformStamped]:
        """Return the moving joints' transforms at `positions` ({joint name: rad or m})."""
        out = []
        for j in self.moving:
            q = positions[j.name]
            if j.kind == 'prismatic':
                (ox, oy, oz), (ax, ay, az) = j.xyz, j.axis
                xyz = (ox + ax * q, oy + ay * q, oz + az * q)
                out.append(transform(stamp, self.frame(j.parent), self.frame(j.child), xyz,
                                     j.quat))
            else:
                out.append(transform(stamp, self.frame(j.parent), self.frame(j.child), j.xyz,
                                     multiply(j.quat, axis_rotation(j.axis, q))))
        return out
