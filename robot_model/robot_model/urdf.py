# SPDX-License-Identifier: Apache-2.0
"""
URDF: the one joint type and the one writer of the URDF files generated from MuJoCo models.

`Joint` is what the state publishers read from a URDF (state_publisher_common.urdf_tree) and
what the generators write (hb50_nodes.description, pnd_adam_description.urdf). `UrdfWriter`
writes links (inertial, primitive visuals with their collisions), joints and materials in one
format: numbers as `%.9g`, inertia principal (off-diagonal terms 0), each visual followed by
a collision of the same shape. Each generator reads its own MuJoCo source (the MJCF text, or
the compiled model) and passes plain numbers; rotations come as URDF rpy (a MuJoCo
quaternion converted with quaternion.to_rpy at the call site).

Plain Python (no mujoco, no numpy, no ROS).
"""

from dataclasses import dataclass
from typing import Dict, Iterable, Mapping, Sequence, Tuple
import xml.etree.ElementTree as ET

from .quaternion import IDENTITY, Quaternion, to_rpy, Vector3

ZERO3: Vector3 = (0.0, 0.0, 0.0)
# A primitive shape: its URDF geometry element and attributes, e.g. ('sphere', {'radius': '0.02'})
Shape = Tuple[str, Dict[str, str]]


@dataclass(frozen=True)
class Joint:
    """
    One URDF joint: `kind` revolute, continuous, prismatic or fixed.

    Origin xyz (m) and rotation quat (x, y, z, w) in the parent link; axis (unit vector, URDF's
    default x) in the joint frame; lower, upper (rad or m), effort (N*m or N) and velocity
    (rad/s or m/s) are the <limit> of a revolute or prismatic joint.
    """

    name: str
    kind: str
    parent: str
    child: str
    xyz: Vector3
    quat: Quaternion = IDENTITY
    axis: Vector3 = (1.0, 0.0, 0.0)
    lower: float = 0.0
    upper: float = 0.0
    effort: float = 0.0
    velocity: float = 0.0


def number(value: float) -> str:
    """Return one number as the URDF files write it (9 significant digits)."""
    return f'{value:.9g}'


class UrdfWriter:
    """
    The elements of one URDF document, in the order they are added.

    zero: a value whose magnitude is below it is written as 0 in vectors (xyz, rpy, sizes),
    to keep rounding noise of a compiled model (1e-17, -0) out of the text; 0.0 writes every
    value as it is.
    """

    def __init__(self, robot: str, comment: str, materials: Mapping[str, Sequence[float]],
                 zero: float = 0.0) -> None:
        self.zero = zero
        self.robot = ET.Element('robot', name=robot)
        self.robot.append(ET.Comment(comment))
        for name, rgba in materials.items():
            ET.SubElement(ET.SubElement(self.robot, 'material', name=name), 'color',
                          rgba=self.vector(rgba))

    def vector(self, values: Iterable[float]) -> str:
        """Return space-separated numbers, values below `zero` in magnitude written as 0."""
        zero = self.zero
        return ' '.join(number(0.0 if abs(v) < zero else v) for v in values)

    def origin(self, parent: ET.Element, xyz: Iterable[float],
               rpy: Iterable[float] = ZERO3) -> None:
        """Add <origin xyz rpy> to `parent`."""
        ET.SubElement(parent, 'origin', xyz=self.vector(xyz), rpy=self.vector(rpy))

    def link(self, name: str) -> ET.Element:
        """Add an empty <link> and return it."""
        return ET.SubElement(self.robot, 'link', name=name)

    def inertial(self, link: ET.Element, xyz: Iterable[float], mass: float,
                 inertia: Tuple[float, float, float], rpy: Iterable[float] = ZERO3) -> None:
        """Add the <inertial> of `link`: centre of mass, mass (kg), principal inertia."""
        el = ET.SubElement(link, 'inertial')
        self.origin(el, xyz, rpy)
        ET.SubElement(el, 'mass', value=number(mass))
        ixx, iyy, izz = inertia
        ET.SubElement(el, 'inertia', ixx=number(ixx), ixy='0', ixz='0', iyy=number(iyy),
                      iyz='0', izz=number(izz))

    def box(self, size: Iterable[float]) -> Shape:
        """Return a box of full edge lengths `size` (m)."""
        return 'box', {'size': self.vector(size)}

    @staticmethod
    def cylinder(radius: float, length: float) -> Shape:
        """Return a cylinder along z (m)."""
        return 'cylinder', {'radius': number(radius), 'length': number(length)}

    @staticmethod
    def sphere(radius: float) -> Shape:
        """Return a sphere of `radius` (m)."""
        return 'sphere', {'radius': number(radius)}

    def shape(self, link: ET.Element, material: str, shape: Shape, xyz: Iterable[float],
              rpy: Iterable[float] = ZERO3) -> None:
        """Add a <visual> of `shape` in `material` and a <collision> of the same shape."""
        xyz, rpy = tuple(xyz), tuple(rpy)
        kind, attrs = shape
        for tag in ('visual', 'collision'):
            el = ET.SubElement(link, tag)
            self.origin(el, xyz, rpy)
            ET.SubElement(ET.SubElement(el, 'geometry'), kind, attrs)
            if tag == 'visual':
                ET.SubElement(el, 'material', name=material)

    def joint(self, joint: Joint) -> None:
        """Add `joint`: origin, and for a moving joint its axis and limits."""
        el = ET.SubElement(self.robot, 'joint', name=joint.name, type=joint.kind)
        ET.SubElement(el, 'parent', link=joint.parent)
        ET.SubElement(el, 'child', link=joint.child)
        self.origin(el, joint.xyz, to_rpy(joint.quat))
        if joint.kind != 'fixed':
            ET.SubElement(el, 'axis', xyz=self.vector(joint.axis))
            ET.SubElement(el, 'limit', lower=number(joint.lower), upper=number(joint.upper),
                          effort=number(joint.effort), velocity=number(joint.velocity))

    def text(self) -> str:
        """Return the document, indented, with its XML declaration."""
        ET.indent(self.robot)
        return '<?xml version="1.0"?>\n' + ET.tostring(self.robot, encoding='unicode') + '\n'
