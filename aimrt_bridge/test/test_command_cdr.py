# SPDX-License-Identifier: Apache-2.0
"""
command_cdr, the raw command path, against the message-object path it replaces.

For any aimrt_protocols_msgs/JointCommand: the protobuf body command_cdr writes from the
CDR bytes equals codec.encode(conversions.joint_command_from_ros(msg)) byte for byte,
the JSON body parses to the same message, and what the conversion refuses, command_cdr
refuses with the same error text. Truncated bytes raise CdrError, never a body.
"""
import json
import math

from aimrt_bridge import command_cdr
from aimrt_protocols_msgs.msg import JointCommand as RosJointCommand
from aimrt_protocols_py import codec, conversions
from aimrt_protocols_py.errors import ConversionError
from aimrt_protocols_py.messages import JointCommand
from hypothesis import given, settings
from hypothesis import strategies as st
import pytest
from rclpy.serialization import serialize_message
from ros_wire import CdrError

# +0.0 and -0.0 differ on the protobuf wire (proto3 leaves only +0.0 out)
VALUES = st.one_of(st.sampled_from([0.0, -0.0, 1.0, math.inf, -math.inf, math.nan]),
                   st.floats(allow_nan=True, allow_infinity=True))
NAMES = st.text(st.characters(blacklist_categories=('Cs',)), max_size=8)


@st.composite
def commands(draw):
    """Draw a JointCommand whose arrays are len(name) long, zeros, empty or any length."""
    names = draw(st.lists(NAMES, max_size=6))
    msg = RosJointCommand(name=names)
    for column in ('position', 'velocity', 'effort', 'stiffness', 'damping'):
        kind = draw(st.sampled_from(['full', 'full', 'zero', 'empty', 'short']))
        n = len(names)
        if kind == 'full':
            values = draw(st.lists(VALUES, min_size=n, max_size=n))
        elif kind == 'zero':
            values = [0.0] * n
        elif kind == 'empty':
            values = []
        else:
            values = draw(st.lists(VALUES, max_size=n + 2))
        setattr(msg, column, values)
    msg.header.stamp.sec = draw(st.sampled_from([0, 1, 1_700_000_000, -1, 2**31 - 1]))
    msg.header.stamp.nanosec = draw(st.sampled_from([0, 1, 999_999_999, 10**9, 2**32 - 1]))
    msg.header.frame_id = draw(st.sampled_from(['', 'base', 'b\u00e4se']))
    return msg


def reference(msg, serialization):
    """(body, content type) of the message-object path, or the ConversionError text."""
    try:
        return codec.encode_body(conversions.joint_command_from_ros(msg), serialization)
    except ConversionError as exc:
        return str(exc)


def raw_path(data, serialization):
    try:
        return command_cdr.command_body(data, serialization)
    except ConversionError as exc:
        return str(exc)


@settings(derandomize=True, max_examples=300, deadline=None, database=None)
@given(commands())
def test_protobuf_body_equals_the_conversion_path_byte_for_byte(msg):
    data = serialize_message(msg)
    assert raw_path(data, 'pb') == reference(msg, 'pb')
    # a second time: the cached names block and struct give the same bytes
    assert raw_path(data, 'pb') == reference(msg, 'pb')


@settings(derandomize=True, max_examples=60, deadline=None, database=None)
@given(commands())
def test_json_body_is_the_same_message(msg):
    data = serialize_message(msg)
    expected = reference(msg, 'json')
    got = raw_path(data, 'json')
    if isinstance(expected, str):
        assert got == expected
        return
    assert got[1] == expected[1] == codec.JSON_CONTENT_TYPE
    # NaN != NaN: compare the messages' protobuf bytes
    assert codec.encode(codec.from_json(JointCommand, got[0])) == \
        codec.encode(codec.from_json(JointCommand, expected[0]))
    assert json.loads(got[0]).keys() == json.loads(expected[0]).keys()


def test_values_of_a_command():
    msg = RosJointCommand(name=['hip', 'knee'], position=[0.5, -1.0], damping=[2.0, 3.0])
    msg.header.stamp.sec, msg.header.stamp.nanosec = 12, 345
    msg.header.frame_id = 'base'
    body, content_type = command_cdr.command_body(serialize_message(msg), 'pb')
    assert content_type == codec.PROTOBUF_CONTENT_TYPE
    cmd = codec.decode(JointCommand, body)
    assert cmd.header.time_stamp == 12_000_000_345 and cmd.header.frame_id == 'base'
    assert [(j.name, j.position, j.velocity, j.effort, j.stiffness, j.damping)
            for j in cmd.joints] == [('hip', 0.5, 0.0, 0.0, 0.0, 2.0),
                                     ('knee', -1.0, 0.0, 0.0, 0.0, 3.0)]


def test_position_must_be_given():
    msg = RosJointCommand(name=['hip'], velocity=[1.0])
    with pytest.raises(ConversionError, match='position has 0 values for 1 names'):
        command_cdr.command_body(serialize_message(msg), 'pb')


@pytest.mark.parametrize('cut', [0, 3, 4, 10, 20, -8, -1])
def test_truncated_bytes_raise_cdr_error(cut):
    # every array full: rclpy pads after an empty float64[] (bytes no reader needs)
    msg = RosJointCommand(name=['hip', 'knee'], position=[0.5, -1.0], velocity=[1.0, 2.0],
                          effort=[1.0, 2.0], stiffness=[1.0, 2.0], damping=[1.0, 2.0])
    data = serialize_message(msg)
    with pytest.raises(CdrError):
        command_cdr.command_body(data[:cut], 'pb')


def test_a_sequence_count_past_the_end_raises_cdr_error():
    msg = RosJointCommand(name=['hip'], position=[0.5])
    data = bytearray(serialize_message(msg))
    # the position count follows the names block: header (4 + 8 + 4 + 1 -> 20) + names
    at = data.index(b'hip\x00') + 4
    at += -(at - 4) % 4
    assert data[at:at + 4] == b'\x01\x00\x00\x00'
    data[at:at + 4] = (2**31).to_bytes(4, 'little')
    with pytest.raises(CdrError, match='float64 sequence'):
        command_cdr.command_body(bytes(data), 'pb')
