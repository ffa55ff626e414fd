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

import math
import os
from typing import Dict, List, Optional, Tuple
import xml.etree.ElementTree as ET

from node_runtime.share import share_file as _share_file
from robot_model.urdf import Joint, UrdfWriter

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


def share_file(*parts: str) -> str:
    """Return share/hb50_nodes/<parts> of the install, else the source tree's <parts>."""
    return _share_file('hb50_nodes', _SOURCE_ROOT, *parts)


def model_path() -> str:
    """Return the MJCF (installed share/, else the source tree's models/)."""
    return share_file('models', 'hb50.xml')


def urdf_path() -> str:
    """Return the installed URDF, share/hb50_nodes/urdf/hb50.urdf (source tree as fallback)."""
    return share_file('urdf', 'hb50.urdf')


def _floats(text: Optional[str]) -> Tuple[float, ...]:
    return tuple(float(v) for v in (text or '').split())


def _vec3(text: Optional[str]) -> Tuple[float, float, float]:
    x, y, z = _floats(text)
    return x, y, z


def _positions(leg: str, geo: LegGeometry) -> Dict[str, Tuple[float, float, float]]:
    """Joint origins of one leg from `geo`, as mujoco_physics._apply_geometry sets them."""
    i = LEGS.index(leg)
    side = LEG_SIDE[i]
    return {'hip': (LEG_FRONT[i] * geo.hip_x, side * geo.hip_y, 0.0),
            'thigh': (0.0, side * geo.l_abad, 0.0),
            'shank': (0.0, 0.0, -geo.l_thigh),
            'foot': (0.0, 0.0, -geo.l_shank)}


def _bodies(mjcf: str) -> Dict[str, ET.Element]:
    return {str(b.get('name')): b for b in ET.parse(mjcf).getroot().iter('body')}


def _child(el: ET.Element, path: str) -> ET.Element:
    found = el.find(path)
    if found is None:
        raise ValueError(f'MJCF body {el.get("name")} has no {path}')
    return found


def joints(geo: LegGeometry = LegGeometry(), mjcf: Optional[str] = None) -> List[Joint]:
    """Return the URDF joints in tree order (per leg j0, j1, j2, foot), from the MJCF."""
    bodies = _bodies(mjcf or model_path())
    out = []
    for leg in LEGS:
        pos = _positions(leg, geo)
        parent = ROOT_LINK
        for body, link in _LINK_OF_BODY:
            joint = _child(bodies[f'{leg}_{body}'], 'joint')
            lower, upper = _floats(joint.get('range'))
            out.append(Joint(str(joint.get('name')), 'revolute', parent, f'{leg}_{link}',
                             pos[body], axis=_vec3(joint.get('axis')), lower=lower,
                             upper=upper, effort=EFFORT_LIMIT, velocity=VELOCITY_LIMIT))
            parent = f'{leg}_{link}'
        out.append(Joint(f'{leg}_foot_joint', 'fixed', parent, f'{leg}_foot', pos['foot']))
    return out


def _mass(body: ET.Element) -> float:
    return float(_child(body, 'inertial').get('mass', ''))


def _inertial(urdf: UrdfWriter, link: ET.Element, body: ET.Element,
              mass_scale: float = 1.0) -> None:
    inertial = _child(body, 'inertial')
    ixx, iyy, izz = (v * mass_scale for v in _floats(inertial.get('diaginertia')))
    urdf.inertial(link, _floats(inertial.get('pos')), _mass(body) * mass_scale, (ixx, iyy, izz))


def _capsule_as_cylinder(urdf: UrdfWriter, link: ET.Element, geom: ET.Element,
                         material: str) -> None:
    """Add an MJCF capsule `fromto` along z as a URDF cylinder (URDF has no capsule)."""
    x0, y0, z0, x1, y1, z1 = _floats(geom.get('fromto'))
    radius = _floats(geom.get('size'))[0]
    length = math.dist((x0, y0, z0), (x1, y1, z1))
    urdf.shape(link, material, urdf.cylinder(radius, length),
               ((x0 + x1) / 2, (y0 + y1) / 2, (z0 + z1) / 2))


def generate(geo: LegGeometry = LegGeometry(), mjcf: Optional[str] = None,
             body_mass: Optional[float] = None) -> str:
    """
    Return the URDF text of the HB50.

    geo: the leg geometry (defaults = the MJCF's); body_mass: total mass (kg) as the
    simulator's body_mass parameter scales the trunk, None keeps the MJCF's masses.
    """
    mjcf = mjcf or model_path()
    bodies = _bodies(mjcf)
    urdf = UrdfWriter('hb50', (
        ' Generated by hb50_nodes.description from models/hb50.xml (the MuJoCo model); '
        'do not edit: edit the MJCF or kinematics.LegGeometry and regenerate. '), MATERIALS)

    trunk = bodies['trunk']
    scale = 1.0
    if body_mass is not None:
        legs = sum(_mass(b) for n, b in bodies.items() if n != 'trunk')
        scale = (body_mass - legs) / _mass(trunk)
        if scale <= 0.0:
            raise ValueError(f'body_mass {body_mass} kg must exceed the legs ({legs:.2f} kg)')
    link = urdf.link(ROOT_LINK)
    _inertial(urdf, link, trunk, scale)
    box = _child(trunk, 'geom')
    urdf.shape(link, 'trunk', urdf.box(2.0 * v for v in _floats(box.get('size'))),
               _floats(box.get('pos', '0 0 0')))

    for leg in LEGS:
        hip_body = bodies[f'{leg}_hip']
        hip = urdf.link(f'{leg}_l0')
        _inertial(urdf, hip, hip_body)
        urdf.shape(hip, 'hip', urdf.cylinder(HIP_RADIUS, geo.l_abad),
                   _floats(_child(hip_body, 'inertial').get('pos')), (math.pi / 2, 0.0, 0.0))
        for body, name, material in (('thigh', 'l1', 'thigh'), ('shank', 'l2', 'shank')):
            el = bodies[f'{leg}_{body}']
            link = urdf.link(f'{leg}_{name}')
            _inertial(urdf, link, el)
            for geom in el.findall('geom'):
                if geom.get('type') == 'capsule':
                    _capsule_as_cylinder(urdf, link, geom, material)
        foot = urdf.link(f'{leg}_foot')
        sphere = bodies[f'{leg}_shank'].find(f"geom[@name='{leg}_foot']")
        radius = _floats(sphere.get('size', '0.02'))[0] if sphere is not None else 0.02
        urdf.shape(foot, 'foot', urdf.sphere(radius), (0.0, 0.0, 0.0))

    for joint in joints(geo, mjcf):
        urdf.joint(joint)
    return urdf.text()


def main() -> None:
    """Print the URDF (regenerate urdf/hb50.urdf: python3 -m hb50_nodes.description)."""
    print(generate(mjcf=os.path.join(_SOURCE_ROOT, 'models', 'hb50.xml')), end='')


if __name__ == '__main__':
    main()
