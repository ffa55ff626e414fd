# SPDX-License-Identifier: Apache-2.0
"""
The Adam U URDF, generated from the compiled MuJoCo model: one source, two outputs.

`generate()` compiles models/adam_u.xml exactly as the simulators do (mujoco_model.build_model,
with the joint ranges of joints.py) and writes every body of the robot as a URDF link: its
mass, centre of mass and principal inertia, its geoms as primitive visuals and collisions
(boxes, cylinders, spheres; a capsule becomes a cylinder, URDF has none), and its joint with
the origin, axis and limits MuJoCo uses. So the URDF, the MuJoCo model and joints.py cannot
drift apart (test/test_urdf.py checks the committed file against a fresh generation).

Root link `pelvis` (the IMU body). The lifting-column stand hangs below it on the fixed joint
`stand_joint`. Joints carry the vendor's actuator names, links the MJCF body names.

    python3 -m pnd_adam_description.urdf > urdf/adam_u.urdf      # regenerate
"""

import math
import os
import xml.etree.ElementTree as ET

from node_runtime.share import share_file as _share_file

ROBOT_NAME = 'adam_u'
# The package's folder in the source tree (models/, urdf/): the fallback of share_file().
_SOURCE_ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
ROOT_LINK = 'pelvis'
STAND_LINK = 'stand'

# name: rgba; a link's material is the first whose key its name contains.
MATERIALS = {
    'stand': (0.25, 0.26, 0.28, 1.0),
    'pelvis': (0.15, 0.35, 0.65, 1.0),
    'torso': (0.15, 0.35, 0.65, 1.0),
    'waist': (0.55, 0.57, 0.60, 1.0),
    'head': (0.92, 0.92, 0.94, 1.0),
    'neck': (0.55, 0.57, 0.60, 1.0),
    'hand': (0.10, 0.10, 0.10, 1.0),
    'arm': (0.80, 0.80, 0.82, 1.0),
}


def share_file(*parts):
    """Return share/pnd_adam_description/<parts> of the install, else the source tree's."""
    return _share_file('pnd_adam_description', _SOURCE_ROOT, *parts)


def urdf_path():
    """Return the installed URDF, share/pnd_adam_description/urdf/adam_u.urdf."""
    return share_file('urdf', 'adam_u.urdf')


def read():
    """Return the installed URDF text (no MuJoCo needed)."""
    with open(urdf_path(), encoding='utf-8') as f:
        return f.read()


def _fmt(values):
    return ' '.join(f'{0.0 if abs(v) < 1e-12 else v:.9g}' for v in values)


def quat_to_rpy(q):
    """URDF rpy (fixed-axis roll, pitch, yaw: R = Rz(y) Ry(p) Rx(r)) of a quaternion wxyz."""
    w, x, y, z = (float(v) for v in q)
    roll = math.atan2(2 * (w * x + y * z), 1 - 2 * (x * x + y * y))
    pitch = math.asin(max(-1.0, min(1.0, 2 * (w * y - z * x))))
    yaw = math.atan2(2 * (w * z + x * y), 1 - 2 * (y * y + z * z))
    return roll, pitch, yaw


def _material(link):
    for key in MATERIALS:
        if key in link.lower():
            return key
    return 'arm'


def _origin(parent, xyz, quat):
    ET.SubElement(parent, 'origin', xyz=_fmt(xyz), rpy=_fmt(quat_to_rpy(quat)))


def _geoms(mujoco, model, body, link, material):
    """Add the visuals and collisions of `body`'s geoms (primitive shapes) to `link`."""
    box, sphere, cylinder, capsule = (int(k) for k in (
        mujoco.mjtGeom.mjGEOM_BOX, mujoco.mjtGeom.mjGEOM_SPHERE, mujoco.mjtGeom.mjGEOM_CYLINDER,
        mujoco.mjtGeom.mjGEOM_CAPSULE))
    for g in range(model.ngeom):
        if model.geom_bodyid[g] != body:
            continue
        kind, size = int(model.geom_type[g]), model.geom_size[g]
        if kind == box:
            shape = ('box', {'size': _fmt(2.0 * size[:3])})
        elif kind == sphere:
            shape = ('sphere', {'radius': f'{size[0]:.9g}'})
        elif kind in (cylinder, capsule):
            # MuJoCo's compiled cylinders and capsules lie along their frame's z axis.
            shape = ('cylinder', {'radius': f'{size[0]:.9g}',
                                  'length': f'{2.0 * size[1]:.9g}'})
        else:
            raise ValueError(f'geom type {kind} of body {link.get("name")} has no URDF '
                             'primitive')
        for tag in ('visual', 'collision'):
            el = ET.SubElement(link, tag)
            _origin(el, model.geom_pos[g], model.geom_quat[g])
            ET.SubElement(ET.SubElement(el, 'geometry'), shape[0], **shape[1])
            if tag == 'visual':
                ET.SubElement(el, 'material', name=material)


def _inertial(parent, model, body):
    el = ET.SubElement(parent, 'inertial')
    _origin(el, model.body_ipos[body], model.body_iquat[body])
    ET.SubElement(el, 'mass', value=f'{model.body_mass[body]:.9g}')
    ixx, iyy, izz = model.body_inertia[body]
    ET.SubElement(el, 'inertia', ixx=f'{ixx:.9g}', ixy='0', ixz='0', iyy=f'{iyy:.9g}',
                  iyz='0', izz=f'{izz:.9g}')


def generate(model=None):
    """Return the URDF text of Adam U from the compiled MuJoCo model (default: build_model)."""
    import mujoco
    from .joints import JOINT_LIMITS
    from .mujoco_model import build_model
    if model is None:
        model = build_model(0.002, base='fixed')
    limits = {lim.name: lim for lim in JOINT_LIMITS}
    name = lambda obj, i: mujoco.mj_id2name(model, obj, i)  # noqa: E731
    body_name = lambda i: name(mujoco.mjtObj.mjOBJ_BODY, i)  # noqa: E731
    root = mujoco.mj_name2id(model, mujoco.mjtObj.mjOBJ_BODY, ROOT_LINK)
    stand = mujoco.mj_name2id(model, mujoco.mjtObj.mjOBJ_BODY, STAND_LINK)

    robot = ET.Element('robot', name=ROBOT_NAME)
    robot.append(ET.Comment(
        ' Generated by pnd_adam_description.urdf from models/adam_u.xml (the MuJoCo model) and '
        'joints.py; do not edit: edit those and regenerate. '))
    for key, rgba in MATERIALS.items():
        ET.SubElement(ET.SubElement(robot, 'material', name=key), 'color', rgba=_fmt(rgba))
    bodies = [root, stand] + [b for b in range(model.nbody) if b not in (0, root, stand)]
    joints = []
    for b in bodies:
        link = body_name(b)
        el = ET.SubElement(robot, 'link', name=link)
        _inertial(el, model, b)
        _geoms(mujoco, model, b, el, _material(link))
        if b in (root, stand):
            continue
        if model.body_jntnum[b] != 1:
            raise ValueError(f'body {link} has {model.body_jntnum[b]} joints (1 expected)')
        joints.append((b, model.body_jntadr[b]))
    # The stand below the pelvis: the inverse of pelvis-in-stand (no rotation in the MJCF).
    fixed = ET.SubElement(robot, 'joint', name='stand_joint', type='fixed')
    ET.SubElement(fixed, 'parent', link=ROOT_LINK)
    ET.SubElement(fixed, 'child', link=STAND_LINK)
    if any(abs(v - c) > 1e-12 for v, c in zip(model.body_quat[root], (1, 0, 0, 0))):
        raise ValueError('the pelvis must not be rotated in the stand')
    _origin(fixed, -model.body_pos[root], (1.0, 0.0, 0.0, 0.0))
    for b, j in joints:
        joint = name(mujoco.mjtObj.mjOBJ_JOINT, j)
        if any(abs(v) > 1e-12 for v in model.jnt_pos[j]):
            raise ValueError(f'joint {joint} is off its body origin')
        lim = limits[joint]
        el = ET.SubElement(robot, 'joint', name=joint, type='revolute')
        ET.SubElement(el, 'parent', link=body_name(model.body_parentid[b]))
        ET.SubElement(el, 'child', link=body_name(b))
        _origin(el, model.body_pos[b], model.body_quat[b])
        ET.SubElement(el, 'axis', xyz=_fmt(model.jnt_axis[j]))
        lower, upper = model.jnt_range[j]
        ET.SubElement(el, 'limit', lower=f'{lower:.9g}', upper=f'{upper:.9g}',
                      effort=f'{lim.tau_max:.9g}', velocity=f'{lim.dq_max:.9g}')
    ET.indent(robot)
    return '<?xml version="1.0"?>\n' + ET.tostring(robot, encoding='unicode') + '\n'


def main():
    """Print the URDF generated from the source tree's model."""
    from .mujoco_model import build_model
    print(generate(build_model(0.002, path=os.path.join(_SOURCE_ROOT, 'models', 'adam_u.xml'))),
          end='')


if __name__ == '__main__':
    main()
