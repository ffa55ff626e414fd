# SPDX-License-Identifier: Apache-2.0
"""The one component order, (x, y, z, w): known rotations give known roll, pitch, yaw."""

import math
import random

import pytest
from robot_model import quaternion
from robot_model.quaternion import axis_rotation, from_rpy, IDENTITY, multiply, rotate, to_rpy

S = math.sin(0.25)      # a rotation of 0.5 rad: sin and cos of the half angle
C = math.cos(0.25)


def test_identity_is_w_last():
    assert IDENTITY == (0.0, 0.0, 0.0, 1.0)
    assert to_rpy(IDENTITY) == (0.0, 0.0, 0.0)
    assert from_rpy(0.0, 0.0, 0.0) == IDENTITY


@pytest.mark.parametrize('q, rpy', [
    ((S, 0.0, 0.0, C), (0.5, 0.0, 0.0)),        # about x: roll
    ((0.0, S, 0.0, C), (0.0, 0.5, 0.0)),        # about y: pitch
    ((0.0, 0.0, S, C), (0.0, 0.0, 0.5)),        # about z: yaw
    ((0.0, 0.0, 1.0, 0.0), (0.0, 0.0, math.pi)),
])
def test_a_rotation_about_each_axis(q, rpy):
    assert to_rpy(q) == pytest.approx(rpy, abs=1e-15)
    assert from_rpy(*rpy) == pytest.approx(q, abs=1e-15)


def test_w_first_order_is_not_accepted_silently():
    # MuJoCo's (w, x, y, z) of a 0.5 rad roll, read as (x, y, z, w), is another rotation.
    assert to_rpy((C, S, 0.0, 0.0)) != pytest.approx((0.5, 0.0, 0.0))


def test_rpy_is_fixed_axis_z_after_y_after_x():
    # R = Rz(yaw) Ry(pitch) Rx(roll): the product of the three single-axis quaternions.
    roll, pitch, yaw = 0.3, -0.2, 1.1
    composed = multiply(axis_rotation((0.0, 0.0, 1.0), yaw), multiply(
        axis_rotation((0.0, 1.0, 0.0), pitch), axis_rotation((1.0, 0.0, 0.0), roll)))
    assert from_rpy(roll, pitch, yaw) == pytest.approx(composed, abs=1e-15)
    assert to_rpy(composed) == pytest.approx((roll, pitch, yaw), abs=1e-12)


def test_rotate_turns_x_into_y_about_z():
    q = axis_rotation((0.0, 0.0, 1.0), math.pi / 2)
    assert rotate(q, (1.0, 0.0, 0.0)) == pytest.approx((0.0, 1.0, 0.0), abs=1e-15)
    assert rotate(IDENTITY, (1.0, 2.0, 3.0)) == (1.0, 2.0, 3.0)


def test_round_trip_and_rotate_equals_the_sandwich_product():
    rng = random.Random(7)
    for _ in range(200):
        rpy = (rng.uniform(-3.1, 3.1), rng.uniform(-1.5, 1.5), rng.uniform(-3.1, 3.1))
        q = from_rpy(*rpy)
        assert to_rpy(q) == pytest.approx(rpy, abs=1e-9)
        v = (rng.uniform(-1, 1), rng.uniform(-1, 1), rng.uniform(-1, 1))
        x, y, z, w = q
        sandwich = multiply(multiply(q, (*v, 0.0)), (-x, -y, -z, w))
        assert rotate(q, v) == pytest.approx(sandwich[:3], abs=1e-12)


def test_pitch_is_clamped_at_the_poles():
    # Rounding can put 2(wy - zx) just past 1: asin must not raise.
    h = math.sqrt(0.5) * (1 + 1e-15)
    assert to_rpy((0.0, h, 0.0, h))[1] == pytest.approx(math.pi / 2)
    assert quaternion.to_rpy((0.0, -h, 0.0, h))[1] == pytest.approx(-math.pi / 2)
