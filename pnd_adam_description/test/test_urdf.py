# SPDX-License-Identifier: Apache-2.0
"""The Adam U URDF: Pinocchio loads it with the vendor's joints; its FK equals MuJoCo's."""

import pathlib

import mujoco
import numpy as np
import pinocchio
from pnd_adam_description import urdf
from pnd_adam_description.joints import JOINT_LIMITS, JOINT_NAMES
from pnd_adam_description.mujoco_model import build_model
import pytest

SOURCE_URDF = pathlib.Path(__file__).parents[1] / 'urdf' / 'adam_u.urdf'
RNG = np.random.default_rng(23)
SAMPLES = [np.zeros(19)] + [np.array([RNG.uniform(lim.q_min, lim.q_max) for lim in JOINT_LIMITS])
                            for _ in range(5)]


@pytest.fixture(scope='module')
def pin_model():
    model = pinocchio.buildModelFromUrdf(urdf.urdf_path())
    return model, model.createData()


@pytest.fixture(scope='module')
def mj():
    model = build_model(0.002, base='fixed')
    return model, mujoco.MjData(model)


def test_installed_urdf_is_the_generated_one():
    # Committed and installed file cannot drift from the MJCF and joints.py.
    text = urdf.generate()
    assert pathlib.Path(urdf.urdf_path()).read_text() == text
    assert SOURCE_URDF.read_text() == text
    assert urdf.urdf_path().endswith('share/pnd_adam_description/urdf/adam_u.urdf')


def test_pinocchio_loads_the_vendor_joints_with_their_limits(pin_model):
    model, _ = pin_model
    assert sorted(model.names[i] for i in range(1, model.njoints)) == sorted(JOINT_NAMES)
    assert model.nq == model.nv == 19
    kinds = {model.joints[i].shortname() for i in range(1, model.njoints)}
    assert kinds <= {'JointModelRX', 'JointModelRY', 'JointModelRZ'}, kinds
    for lim in JOINT_LIMITS:
        j = model.joints[model.getJointId(lim.name)]
        assert model.lowerPositionLimit[j.idx_q] == pytest.approx(lim.q_min)
        assert model.upperPositionLimit[j.idx_q] == pytest.approx(lim.q_max)
        assert model.effortLimit[j.idx_v] == pytest.approx(lim.tau_max)
        assert model.velocityLimit[j.idx_v] == pytest.approx(lim.dq_max)
    frames = {f.name for f in model.frames}
    assert {'pelvis', 'stand', 'torso', 'head', 'hand_Left', 'hand_Right'} <= frames


def test_masses_equal_the_mujoco_model(pin_model, mj):
    model, _ = pin_model
    assert sum(i.mass for i in model.inertias) == pytest.approx(
        float(mj[0].body_subtreemass[1]), rel=1e-6)


def test_visuals_are_primitive_shapes_with_colours():
    text = SOURCE_URDF.read_text()
    assert 'mesh' not in text
    assert text.count('<visual>') == text.count('<collision>') > 19
    assert text.count('<material name=') >= text.count('<color ') >= 5


@pytest.mark.parametrize('sample', range(len(SAMPLES)))
def test_pinocchio_fk_equals_mujoco_body_positions(pin_model, mj, sample):
    model, data = pin_model
    m, d = mj
    q_wire = SAMPLES[sample]
    q = np.zeros(model.nq)
    for name, value in zip(JOINT_NAMES, q_wire):
        q[model.joints[model.getJointId(name)].idx_q] = value
    pinocchio.framesForwardKinematics(model, data, q)
    for name, value in zip(JOINT_NAMES, q_wire):
        d.qpos[m.jnt_qposadr[mujoco.mj_name2id(m, mujoco.mjtObj.mjOBJ_JOINT, name)]] = value
    mujoco.mj_kinematics(m, d)
    pelvis = mujoco.mj_name2id(m, mujoco.mjtObj.mjOBJ_BODY, urdf.ROOT_LINK)
    r0, p0 = d.xmat[pelvis].reshape(3, 3), d.xpos[pelvis]
    checked = 0
    for b in range(1, m.nbody):
        name = mujoco.mj_id2name(m, mujoco.mjtObj.mjOBJ_BODY, b)
        pose = data.oMf[model.getFrameId(name)]
        # MuJoCo's world pose of the body, expressed in the pelvis (the URDF root).
        position = r0.T @ (d.xpos[b] - p0)
        rotation = r0.T @ d.xmat[b].reshape(3, 3)
        assert np.linalg.norm(pose.translation - position) <= 1e-3, name
        assert np.linalg.norm(pinocchio.log3(pose.rotation.T @ rotation)) <= 1e-3, name
        checked += 1
    assert checked == m.nbody - 1 == 21
