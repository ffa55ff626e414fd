# SPDX-License-Identifier: Apache-2.0
"""UrdfTree's transforms, NewestSample's refusals and Refusals' rate limit."""

import math

from builtin_interfaces.msg import Time
import pytest
from rclpy.serialization import serialize_message
from robot_model.quaternion import from_rpy as rpy_to_quat, multiply as quat_multiply
from state_publisher_common.newest import InvalidSample, NewestSample, Refusals
from state_publisher_common.urdf_tree import UrdfTree
from std_msgs.msg import String

URDF = """<robot name="t">
  <link name="a"/><link name="b"/><link name="c"/><link name="d"/>
  <joint name="j1" type="revolute"><parent link="a"/><child link="b"/>
    <origin xyz="1 0 0" rpy="0 0 1.5707963267948966"/><axis xyz="0 0 2"/></joint>
  <joint name="slide" type="prismatic"><parent link="b"/><child link="c"/>
    <origin xyz="0 1 0"/><axis xyz="1 0 0"/></joint>
  <joint name="tip" type="fixed"><parent link="c"/><child link="d"/>
    <origin xyz="0 0 0.5"/></joint>
</robot>"""
STAMP = Time(sec=7, nanosec=9)


def rotate(q, v):
    x, y, z, w = quat_multiply(quat_multiply(q, (*v, 0.0)), (-q[0], -q[1], -q[2], q[3]))[:4]
    return x, y, z


def test_transforms_follow_the_joints_with_prefix_and_stamp():
    tree = UrdfTree(URDF, 'robot1/')
    assert tree.joint_names == ('j1', 'slide')
    (tip,) = tree.static_transforms(STAMP)
    assert (tip.header.frame_id, tip.child_frame_id) == ('robot1/c', 'robot1/d')
    assert tip.transform.translation.z == 0.5 and tip.header.stamp == STAMP
    j1, slide = tree.moving_transforms(STAMP, {'j1': 0.5, 'slide': 0.25})
    r = j1.transform.rotation
    # origin yaw pi/2 then 0.5 rad about z (axis normalised): yaw pi/2 + 0.5 in total.
    assert 2 * math.atan2(r.z, r.w) == pytest.approx(math.pi / 2 + 0.5)
    assert (j1.header.frame_id, j1.child_frame_id) == ('robot1/a', 'robot1/b')
    t = slide.transform.translation
    assert (t.x, t.y, t.z) == pytest.approx((0.25, 1.0, 0.0))


def test_rpy_is_urdfs_fixed_axis_convention():
    q = rpy_to_quat(0.3, -0.2, 1.1)
    # R = Rz(yaw) Ry(pitch) Rx(roll): the x axis ends at (cy cp, sy cp, -sp).
    x = rotate(q, (1.0, 0.0, 0.0))
    assert x == pytest.approx((math.cos(1.1) * math.cos(-0.2), math.sin(1.1) * math.cos(-0.2),
                               -math.sin(-0.2)))


def test_newest_sample_decodes_only_the_newest_and_refuses_bad_bytes():
    sample = NewestSample(String, 'chatter', max_bytes=64)
    assert sample.take() is None
    sample.store(serialize_message(String(data='old')))
    sample.store(serialize_message(String(data='new')))
    assert sample.take().data == 'new' and sample.take() is None
    sample.store(serialize_message(String(data='x' * 100)))
    with pytest.raises(InvalidSample, match='oversized'):
        sample.take()
    sample.store(b'\x00\x01\x00\x00\xff\xff\xff\x7f')
    with pytest.raises(InvalidSample, match='undecodable'):
        sample.take()


def test_refusals_are_rate_limited_per_reason():
    lines = []

    class Logger:
        def warning(self, text):
            lines.append(text)
    refusals = Refusals(Logger())
    for n in range(50):
        refusals.refuse(InvalidSample(f'lowstate oversized: {99 + n} bytes'))
        refusals.refuse(InvalidSample('lowstate: non-finite q'))
    assert refusals.count == 100
    assert len(lines) == 2 and all(line.startswith('not published: ') for line in lines)
