# SPDX-License-Identifier: Apache-2.0
"""Leg kinematics: forward/inverse, Jacobian, forces, body twist from the feet."""

from hb50_nodes import kinematics as k
import numpy as np

GEO = k.LegGeometry()


def _random_q(seed):
    rng = np.random.default_rng(seed)
    return np.tile([0.0, 0.8, -1.6], (4, 1)) + rng.normal(0.0, 0.25, (4, 3))


def test_inverse_undoes_forward():
    for seed in range(20):
        q = _random_q(seed)
        np.testing.assert_allclose(k.inverse(GEO, k.forward(GEO, q)), q, atol=1e-9)


def test_jacobian_matches_finite_differences():
    q = _random_q(1)
    jac = k.jacobian(GEO, q)
    eps = 1e-6
    for j in range(3):
        dq = np.zeros((4, 3))
        dq[:, j] = eps
        numeric = (k.forward(GEO, q + dq) - k.forward(GEO, q - dq)) / (2 * eps)
        np.testing.assert_allclose(jac[:, :, j], numeric, atol=1e-8)


def test_standing_leg_geometry():
    feet = k.forward(GEO, np.tile([0.0, 0.8, -1.6], (4, 1)))
    # Equal thigh and shank with q2 = -2 q1 put the foot straight under the hip.
    np.testing.assert_allclose(feet[:, 0], GEO.hips[:, 0], atol=1e-12)
    np.testing.assert_allclose(np.abs(feet[:, 1]), GEO.hip_y + GEO.l_abad)
    assert np.all(feet[:, 2] < -0.25)
    # Right legs (FR, RR) are on the -y side, left legs on +y.
    assert feet[0, 1] < 0 < feet[1, 1] and feet[3, 1] < 0 < feet[2, 1]


def test_force_from_torque_inverts_jacobian_transpose():
    q = _random_q(2)
    jac = k.jacobian(GEO, q)
    force = np.random.default_rng(3).normal(0, 30, (4, 3))
    load = k.joint_torque_from_force(jac, force)
    # Motors balancing that load apply -load; the estimate recovers the force.
    np.testing.assert_allclose(k.foot_force_from_torque(jac, -load), force, atol=1e-9)


def test_body_twist_from_planted_feet():
    feet = k.forward(GEO, np.tile([0.0, 0.8, -1.6], (4, 1)))
    v, wz = np.array([0.3, -0.1]), 0.5
    # A planted foot moves in the body frame with -(v + w x p).
    foot_vel = np.zeros((4, 3))
    foot_vel[:, 0] = -(v[0] - wz * feet[:, 1])
    foot_vel[:, 1] = -(v[1] + wz * feet[:, 0])
    mask = np.array([True, False, True, False])
    np.testing.assert_allclose(k.body_twist_from_feet(feet, foot_vel, mask), (0.3, -0.1, 0.5),
                               atol=1e-12)
    assert k.body_twist_from_feet(feet, foot_vel, np.zeros(4, bool)) == (0.0, 0.0, 0.0)
