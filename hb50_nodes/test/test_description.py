# SPDX-License-Identifier: Apache-2.0
"""The URDF: an independent parser (Pinocchio) loads it; it equals MuJoCo and kinematics.py."""

import pathlib

from hb50_nodes import description, kinematics
from hb50_nodes.layout import EFFORT_LIMIT, JOINT_NAMES, VELOCITY_LIMIT
import mujoco
import numpy as np
import pinocchio
import pytest

LEGS = description.LEGS
SOURCE_URDF = pathlib.Path(__file__).parents[1] / 'urdf' / 'hb50.urdf'
RNG = np.random.default_rng(23)
# Joint angles within the MJCF ranges (j0 +-1, j1 -2..3, j2 -3..0.5), a few samples.
SAMPLES = [np.zeros(12)] + [
    np.concatenate([[RNG.uniform(-1, 1), RNG.uniform(-2, 3), RNG.uniform(-3, 0.5)]
                    for _ in LEGS]) for _ in range(5)]


@pytest.fixture(scope='module')
def pin_model():
    model = pinocchio.buildModelFromUrdf(description.urdf_path())
    return model, model.createData()


def pin_frames(pin_model, q_wire):
    """Return {frame name: (position, rotation)} at wire-order angles q_wire."""
    model, data = pin_model
    q = np.zeros(model.nq)
    for name, value in zip(JOINT_NAMES, q_wire):
        q[model.joints[model.getJointId(name)].idx_q] = value
    pinocchio.framesForwardKinematics(model, data, q)
    return {f.name: (data.oMf[i].translation.copy(), data.oMf[i].rotation.copy())
            for i, f in enumerate(model.frames)}


def test_installed_urdf_is_the_generated_one():
    # The installed (and committed) file cannot drift from the MJCF it is generated from.
    text = description.generate()
    assert pathlib.Path(description.urdf_path()).read_text() == text
    assert SOURCE_URDF.read_text() == text


def test_pinocchio_loads_twelve_revolute_joints_with_the_vendor_names(pin_model):
    model, _ = pin_model
    joints = [model.names[i] for i in range(1, model.njoints)]
    assert sorted(joints) == sorted(JOINT_NAMES)
    kinds = {model.joints[i].shortname() for i in range(1, model.njoints)}
    assert kinds <= {'JointModelRX', 'JointModelRY', 'JointModelRZ',
                     'JointModelRevoluteUnaligned'}, kinds      # bounded revolute only
    assert model.nq == model.nv == 12
    frames = {f.name for f in model.frames}
    links = {'body'} | {f'{leg}_{part}' for leg in LEGS for part in ('l0', 'l1', 'l2', 'foot')}
    assert links <= frames
    assert 'base_link' not in frames
    assert np.allclose(model.effortLimit, EFFORT_LIMIT)
    assert np.allclose(model.velocityLimit, VELOCITY_LIMIT)


def test_limits_and_masses_equal_the_mujoco_model(pin_model):
    model, _ = pin_model
    mj = mujoco.MjModel.from_xml_path(description.model_path())
    for name in JOINT_NAMES:
        idx = model.joints[model.getJointId(name)].idx_q
        low, high = mj.joint(name).range
        assert model.lowerPositionLimit[idx] == pytest.approx(low)
        assert model.upperPositionLimit[idx] == pytest.approx(high)
    total = sum(inertia.mass for inertia in model.inertias)
    assert total == pytest.approx(float(np.sum(mj.body_mass)))
    assert total == pytest.approx(15.0)


@pytest.mark.parametrize('index', range(len(SAMPLES)))
def test_pinocchio_fk_equals_mujoco_bodies_and_kinematics(pin_model, index):
    q = SAMPLES[index]
    frames = pin_frames(pin_model, q)
    mj = mujoco.MjModel.from_xml_path(description.model_path())
    data = mujoco.MjData(mj)
    data.qpos[:7] = (0, 0, 0, 1, 0, 0, 0)     # trunk at the origin: body frame = world
    for name, value in zip(JOINT_NAMES, q):
        data.qpos[mj.joint(name).qposadr[0]] = value
    mujoco.mj_kinematics(mj, data)
    for leg in LEGS:
        for body, link in (('hip', 'l0'), ('thigh', 'l1'), ('shank', 'l2')):
            pos, rot = frames[f'{leg}_{link}']
            assert np.allclose(pos, data.body(f'{leg}_{body}').xpos, atol=1e-3)
            assert np.allclose(rot, data.body(f'{leg}_{body}').xmat.reshape(3, 3), atol=1e-3)
        assert np.allclose(frames[f'{leg}_foot'][0], data.site(f'{leg}_foot').xpos, atol=1e-3)
    feet = kinematics.forward(kinematics.LegGeometry(), q.reshape(4, 3))
    for leg, foot in zip(LEGS, feet):
        assert np.allclose(frames[f'{leg}_foot'][0], foot, atol=1e-3)


def test_other_geometry_and_mass_follow_the_parameters():
    geo = kinematics.LegGeometry(hip_x=0.3, l_thigh=0.25)
    model = pinocchio.buildModelFromXML(description.generate(geo, body_mass=20.0))
    data = model.createData()
    pinocchio.framesForwardKinematics(model, data, np.zeros(model.nq))
    foot = data.oMf[model.getFrameId('fr_foot')].translation
    assert np.allclose(foot, kinematics.forward(geo, np.zeros((4, 3)))[0], atol=1e-6)
    assert sum(i.mass for i in model.inertias) == pytest.approx(20.0)
    with pytest.raises(ValueError):
        description.generate(body_mass=1.0)
