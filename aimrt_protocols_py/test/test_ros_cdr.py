# SPDX-License-Identifier: Apache-2.0
"""ros_cdr against rclpy: byte for byte (padding masked), round trip, same errors."""
from aimrt_protocols_py import codec
from aimrt_protocols_py import conversions as cv
from aimrt_protocols_py.errors import ConversionError, LossyConversionError
from aimrt_protocols_py.messages import Header, JointState
from aimrt_protocols_py.ros_cdr import joint_state_to_ros_cdr
from hypothesis import given, settings, strategies as st
import pytest
from rclpy.serialization import deserialize_message, serialize_message
from sensor_msgs.msg import JointState as RosJointState


def cut(text):
    raw = text.encode('utf-8')
    return raw.split(b'\x00', 1)[0]


def padding_offsets(msg):
    """Offsets of the alignment bytes of sensor_msgs/JointState (Fast DDS leaves them unset)."""
    pos = [4 + 8]
    pads = set()

    def align(n):
        while (pos[0] - 4) % n:
            pads.add(pos[0])
            pos[0] += 1

    def string(text):
        pos[0] += 4 + len(cut(text)) + 1
    string(msg.header.frame_id)
    align(4)
    pos[0] += 4
    for joint in msg.joints:
        align(4)
        string(joint.name)
    for _ in range(3):
        align(4)
        pos[0] += 4
        if msg.joints:
            align(8)
            pos[0] += 8 * len(msg.joints)
    return pads, pos[0]


def assert_same_as_rclpy(msg, **kwargs):
    ours = joint_state_to_ros_cdr(msg, **kwargs)
    ros = cv.joint_state_to_ros(msg, **kwargs)
    ref = serialize_message(ros)
    pads, size = padding_offsets(msg)
    assert len(ours) == size
    if msg.joints:
        assert len(ref) == size
    else:   # rclpy's buffer has uninitialised bytes after the content (see ros_cdr)
        assert size <= len(ref) <= size + 16
    assert [i for i in range(size) if i not in pads and ours[i] != ref[i]] == []
    assert all(ours[i] == 0 for i in pads)
    back = deserialize_message(ours, RosJointState)   # round trip through rclpy
    assert serialize_message(back)[:16] == ours[:16]
    assert back.name == [cut(n).decode() for n in ros.name]
    assert back.header.frame_id == cut(ros.header.frame_id).decode()
    assert back.header.stamp == ros.header.stamp
    assert list(back.position) == list(ros.position) or any(
        p != p for p in ros.position)    # NaN
    return ours


def make(names, values, stamp=1_700_000_000_123_456_789, frame_id='base'):
    msg = JointState(header=Header(time_stamp=stamp, frame_id=frame_id))
    for i, name in enumerate(names):
        msg.joints.add(name=name, position=values[i % len(values)], velocity=-1.5 * i,
                       effort=float(i))
    return msg


@pytest.mark.parametrize('n', [0, 1, 2, 3, 20])
@pytest.mark.parametrize('frame_id', ['', 'b', 'ba', 'bas', 'base'])
def test_joint_state_equals_rclpy(n, frame_id):
    assert_same_as_rclpy(make([f'j{"x" * i}' for i in range(n)], [0.5, -1e300, 3.0],
                              frame_id=frame_id))


def test_names_with_nul_and_non_ascii_are_sent_as_rclpy_sends_them():
    assert_same_as_rclpy(make(['a\x00b', 'λ-joint', '', '\x00'], [1.0], frame_id='f\x00g'))


@settings(max_examples=60, deadline=None, derandomize=True, database=None)
@given(names=st.lists(st.text(max_size=12), max_size=8),
       values=st.lists(st.floats(allow_nan=False), min_size=1, max_size=8),
       stamp=st.integers(0, (2**31 - 1) * 10**9 + 999_999_999),
       frame_id=st.text(max_size=12))
def test_joint_state_equals_rclpy_for_any_values(names, values, stamp, frame_id):
    assert_same_as_rclpy(make(names, values, stamp, frame_id))


def test_same_errors_and_loss_reports_as_the_message_path():
    late = make(['a'], [1.0], stamp=2**31 * 10**9)
    with pytest.raises(ConversionError) as message_path:
        cv.joint_state_to_ros(late)
    with pytest.raises(ConversionError) as cdr_path:
        joint_state_to_ros_cdr(late)
    assert str(cdr_path.value) == str(message_path.value)
    newer = codec.decode(JointState, codec.encode(make(['a'], [1.0])) + b'\x18\x09')
    with pytest.raises(LossyConversionError):
        joint_state_to_ros_cdr(newer)
    seen = []
    assert_same_as_rclpy(newer, accept_losses=cv.ALL_LOSSES, on_loss=seen.append)
    assert seen == [cv.ALL_LOSSES, cv.ALL_LOSSES]     # once per path
