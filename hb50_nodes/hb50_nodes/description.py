# SPDX-License-Identifier: Apache-2.0
"""
The HB50 URDF, generated from the MuJoCo model (models/hb50.xml): one source, two outputs.

Every dimension, mass, inertia and joint range comes from the MJCF; the body and foot
positions are re-applied from a LegGeometry exactly as mujoco_physics does, so the URDF, the
MuJoCo model and kinematics.py cannot drift apart. Names are the vendor's (robot_models):
root link `body`, per leg `<leg>_l0` (abduction), `<leg>_l1` (thigh), `<leg>_l2` (shank),
`<leg>_foot`; revolute joints `<leg>_j0..j2`, fixed joint `<leg>_foot_joint`.

Visuals are primitive shapes (box, cylinders, spheres), so no mesh files are needed.
Plain Python (no rclpy, no mujoco).
"""

from dataclasses import dataclass
import math
import os
from typing import Tuple
import xml.etree.ElementTree as ET

from node_runtime.share import share_file as _share_file

from .kinematics import LegGeometry
from .layout import EFFORT_LIMIT, LEG_FRONT, LEG_SIDE, VELOCITY_LIMIT

LEGS = ('fr', 'fl', 'rl', 'rr')
ROOT_LINK = 'body'
# MJCF body of each URDF link (per leg).
_LINK_OF_BODY = (('hip', 'l0'), ('thigh', 'l1'), ('shank', 'l2'))

# name: rgba
MATERIALS = {
    'trunk': (0.20, 0.24, 0.30, 1.0),
    'hip': (0.95, 0.55, 0.10, 1.0),
    'thigh': (0.70, 0.72, 0.75, 1.0),
    'shank': (0.45, 0.47, 0.50, 1.0),
    'foot': (0.08, 0.08, 0.08, 1.0),
}
HIP_RADIUS = 0.035     # m, the abduction motor drawn as a cylinder along y
# The package's folder in the source tree (models/, urdf/): the fallback of share_file().
_SOURCE_ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


@dataclass(frozen=True)
class Joint:
    """One URDF joint: `kind` revolute or fixed; origin xyz (m) in the parent link."""

    name: str
    kind: str
    parent: str
    child: str
    xyz: Tuple[float, float, float]
    axis: Tuple[float, float, float] = (0.0, 0.0, 0.0)
    lower: float = 0.0      # rad
    upper: float = 0.0      # rad


def share_file(*parts):
    """Return share/hb50_nodes/<parts> of the install, else the source tree's <parts>."""
    return _share_file('hb50_nodes', _SOURCE_ROOT, *parts)


def model_path():
    """Return the MJCF (installed share/, else the source tree's models/)."""
    return share_file('models', 'hb50.xml')


def urdf_path():
    """Return the installed URDF, share/hb50_nodes/urdf/hb50.urdf (source tree as fallback)."""
    return share_file('urdf', 'hb50.urdf')


def _floats(text):
    return tuple(float(v) for v in text.split())


def _fmt(values):
    return ' '.join(f'{v:.9g}' for v in values)


def _positions(leg, geo):
    """Joint origins of one leg from `geo`, as mujoco_physics._apply_geometry sets them."""
    i = LEGS.index(leg)
    side = LEG_SIDE[i]
    return {'hip': (LEG_FRONT[i] * geo.hip_x, side * geo.hip_y, 0.0),
            'thigh': (0.0, side * geo.l_abad, 0.0),
            'shank': (0.0, 0.0, -geo.l_thigh),
            'foot': (0.0, 0.0, -geo.l_shank)}


def joints(geo=LegGeometry(), mjcf=None):
    """Return the URDF joints in tree order (per leg j0, j1, j2, foot), from the MJCF."""
    root = ET.parse(mjcf or model_path()).getroot()
    bodies = {b.get('name'): b for b in root.iter('body')}
    out = []
    for leg in LEGS:
        pos = _positions(leg, geo)
        parent = ROOT_LINK
        for index, (body, link) in enumerate(_LINK_OF_BODY):
            joint = bodies[f'{leg}_{body}'].find('joint')
            lower, upper = _floats(joint.get('range'))
            out.append(Joint(joint.get('name'), 'revolute', parent, f'{leg}_{link}', pos[body],
                             _floats(joint.get('axis')), lower, upper))
            parent = f'{leg}_{link}'
        out.append(Joint(f'{leg}_foot_joint', 'fixed', parent, f'{leg}_foot', pos['foot']))
    return out


def _inertial(parent, body, mass_scale=1.0):
    inertial = body.find('inertial')
    el = ET.SubElement(parent, 'inertial')
    ET.SubElement(el, 'origin', xyz=_fmt(_floats(inertial.get('pos'))), rpy='0 0 0')
    ET.SubElement(el, 'mass', value=f'{float(inertial.get("mass")) * mass_scale:.9g}')
    ixx, iyy, izz = (v * mass_scale for v in _floats(inertial.get('diaginertia')))
    ET.SubElement(el, 'inertia', ixx=f'{ixx:.9g}', ixy='0', ixz='0', iyy=f'{iyy:.9g}',
                  iyz='0', izz=f'{izz:.9g}')


def _shape(parent, tag, material, xyz, rpy, **geometry):
    """Add one visual (with material) or collision (without) of a primitive shape."""
    el = ET.SubElement(parent, tag)
    ET.SubElement(el, 'origin', xyz=_fmt(xyz), rpy=_fmt(rpy))
    kind, attrs = next(iter(geometry.items()))
    ET.SubElement(ET.SubElement(el, 'geometry'), kind, **attrs)
    if tag == 'visual':
        ET.SubElement(el, 'material', name=material)


def _both(parent, material, xyz, rpy=(0.0, 0.0, 0.0), **geometry):
    _shape(parent, 'visual', material, xyz, rpy, **geometry)
    _shape(parent, 'collision', material, xyz, rpy, **geometry)


def _capsule_as_cylinder(link, geom, material):
    """Add an MJCF capsule `fromto` along z as a URDF cylinder (URDF has no capsule)."""
    x0, y0, z0, x1, y1, z1 = _floats(geom.get('fromto'))
    radius = _floats(geom.get('size'))[0]
    length = math.dist((x0, y0, z0), (x1, y1, z1))
    _both(link, material, ((x0 + x1) / 2, (y0 + y1) / 2, (z0 + z1) / 2),
          cylinder={'radius': f'{radius:.9g}', 'length': f'{length:.9g}'})


def generate(geo=LegGeometry(), mjcf=None, body_mass=None):
    """
    Return the URDF text of the HB50.

    geo: the leg geometry (defaults = the MJCF's); body_mass: total mass (kg) as the
    simulator's body_mass parameter scales the trunk, None keeps the MJCF's masses.
    """
    mjcf = mjcf or model_path()
    root = ET.parse(mjcf).getroot()
    bodies = {b.get('name'): b for b in root.iter('body')}
    robot = ET.Element('robot', name='hb50')
    robot.append(ET.Comment(
        ' Generated by hb50_nodes.description from models/hb50.xml (the MuJoCo model); '
        'do not edit: edit the MJCF or kinematics.LegGeometry and regenerate. '))
    for name, rgba in MATERIALS.items():
        ET.SubElement(ET.SubElement(robot, 'material', name=name), 'color', rgba=_fmt(rgba))

    trunk = bodies['trunk']
    scale = 1.0
    if body_mass is not None:
        legs = sum(float(b.find('inertial').get('mass')) for n, b in bodies.items()
                   if n != 'trunk')
        scale = (body_mass - legs) / float(trunk.find('inertial').get('mass'))
        if scale <= 0.0:
            raise ValueError(f'body_mass {body_mass} kg must exceed the legs ({legs:.2f} kg)')
    link = ET.SubElement(robot, 'link', name=ROOT_LINK)
    _inertial(link, trunk, scale)
    box = trunk.find('geom')
    _both(link, 'trunk', _floats(box.get('pos', '0 0 0')),
          box={'size': _fmt(2.0 * v for v in _floats(box.get('size')))})

    for leg in LEGS:
        hip = ET.SubElement(robot, 'link', name=f'{leg}_l0')
        _inertial(hip, bodies[f'{leg}_hip'])
        _both(hip, 'hip', _floats(bodies[f'{leg}_hip'].find('inertial').get('pos')),
              (math.pi / 2, 0.0, 0.0),
              cylinder={'radius': f'{HIP_RADIUS:.9g}', 'length': f'{geo.l_abad:.9g}'})
        for body, name, material in (('thigh', 'l1', 'thigh'), ('shank', 'l2', 'shank')):
            el = bodies[f'{leg}_{body}']
            link = ET.SubElement(robot, 'link', name=f'{leg}_{name}')
            _inertial(link, el)
            for geom in el.findall('geom'):
                if geom.get('type') == 'capsule':
                    _capsule_as_cylinder(link, geom, material)
        foot = ET.SubElement(robot, 'link', name=f'{leg}_foot')
        sphere = bodies[f'{leg}_shank'].find(f"geom[@name='{leg}_foot']")
        radius = _floats(sphere.get('size', '0.02'))[0] if sphere is not None else 0.02
        _both(foot, 'foot', (0.0, 0.0, 0.0), sphere={'radius': f'{radius:.9g}'})

    for joint in joints(geo, mjcf):
        el = ET.SubElement(robot, 'joint', name=joint.name, type=joint.kind)
        ET.SubElement(el, 'parent', link=joint.parent)
        ET.SubElement(el, 'child', link=joint.child)
        ET.SubElement(el, 'origin', xyz=_fmt(joint.xyz), rpy='0 0 0')
        if joint.kind == 'revolute':
            ET.SubElement(el, 'axis', xyz=_fmt(joint.axis))
            ET.SubElement(el, 'limit', lower=f'{joint.lower:.9g}', upper=f'{joint.upper:.9g}',
                          effort=f'{EFFORT_LIMIT:.9g}', velocity=f'{VELOCITY_LIMIT:.9g}')
    ET.indent(robot)
    return '<?xml version="1.0"?>\n' + ET.tostring(robot, encoding='unicode') + '\n'


def main():
    """Print the URDF (regenerate urdf/hb50.urdf: python3 -m hb50_nodes.description)."""
    print(generate(mjcf=os.path.join(_SOURCE_ROOT, 'models', 'hb50.xml')), end='')


if __name__ == '__main__':
    main()
