# SPDX-License-Identifier: Apache-2.0
"""
Golden bytes written by hand from the proto field numbers and protobuf's encoding rules.

Rules: tag = field_number << 3 | wire_type; varint, fixed64 little endian doubles,
length-delimited strings/messages/packed repeated fields. struct.pack is only used for
IEEE-754 doubles, never the code under test.
"""
import struct

from aimrt_protocols_py import codec
from aimrt_protocols_py.errors import DecodeError
from aimrt_protocols_py.messages import (
    Header, ImuState, JointCommand, JointState, message_class, SingleJointCommand,
    SingleJointState, SingleTouchSensorState, TouchState, type_name)
import pytest


def d(x):
    return struct.pack('<d', x)


HEADER = Header(time_stamp=300, frame_id='base')
# 08 = field 1 varint; 300 = 0b1_0010_1100 -> AC 02; 12 = field 2 LEN
HEADER_BYTES = bytes([0x08, 0xAC, 0x02, 0x12, 0x04]) + b'base'


def test_header_golden_bytes():
    assert codec.encode(HEADER) == HEADER_BYTES
    assert codec.decode(Header, HEADER_BYTES) == HEADER


def test_uint64_time_stamp_max_golden():
    ts = 2**64 - 1
    raw = bytes([0x08]) + b'\xff' * 9 + b'\x01'
    assert codec.encode(Header(time_stamp=ts)) == raw
    assert codec.decode(Header, raw).time_stamp == ts


def test_joint_state_golden_bytes():
    msg = JointState(header=Header(time_stamp=1, frame_id='w'),
                     joints=[SingleJointState(name='j1', position=1.5, velocity=-2.0,
                                              effort=0.25)])
    joint = (bytes([0x0A, 0x02]) + b'j1' + b'\x11' + d(1.5) + b'\x19' + d(-2.0) +
             b'\x21' + d(0.25))
    expected = bytes([0x0A, 0x05, 0x08, 0x01, 0x12, 0x01]) + b'w' + \
        bytes([0x12, len(joint)]) + joint
    assert codec.encode(msg) == expected
    assert codec.decode(JointState, expected) == msg


def test_joint_command_golden_bytes_carry_stiffness_and_damping():
    msg = JointCommand(joints=[SingleJointCommand(
        name='a', position=0.5, velocity=1.0, effort=2.0, stiffness=30.0, damping=0.75)])
    joint = (b'\x0a\x01a' + b'\x11' + d(0.5) + b'\x19' + d(1.0) + b'\x21' + d(2.0) +
             b'\x29' + d(30.0) + b'\x31' + d(0.75))
    expected = bytes([0x12, len(joint)]) + joint
    assert codec.encode(msg) == expected
    assert codec.decode(JointCommand, expected) == msg


def test_imu_state_golden_bytes():
    cov = [float(i) for i in range(9)]
    msg = ImuState(orientation={'x': 0.0, 'y': 0.0, 'z': 0.5, 'w': 1.0},
                   orientation_covariance=cov,
                   angular_velocity={'x': 1.0},
                   linear_acceleration={'z': 9.81},
                   linear_acceleration_covariance=cov)
    packed = b''.join(d(v) for v in cov)
    expected = (b'\x12\x12' + b'\x19' + d(0.5) + b'\x21' + d(1.0) +     # field 2 Quaternion z,w
                b'\x1a\x48' + packed +                                 # field 3 packed, 72 bytes
                b'\x22\x09' + b'\x09' + d(1.0) +                       # field 4 Vector3 x
                b'\x32\x09' + b'\x19' + d(9.81) +                      # field 6 Vector3 z
                b'\x3a\x48' + packed)                                  # field 7
    assert codec.encode(msg) == expected
    assert codec.decode(ImuState, expected) == msg


def test_touch_state_golden_bytes_with_negative_pressure():
    msg = TouchState(names=['tip'], states=[SingleTouchSensorState(pressure=[1, 150, -1])])
    # packed int32: 01, 96 01, and -1 as ten-byte sign-extended varint
    pressure = b'\x01\x96\x01' + b'\xff' * 9 + b'\x01'
    state = bytes([0x0A, len(pressure)]) + pressure
    expected = b'\x12\x03tip' + bytes([0x1A, len(state)]) + state
    assert codec.encode(msg) == expected
    assert codec.decode(TouchState, expected) == msg


def test_unknown_sequence_num_survives_decode_encode():
    # AimRT >= 0.10 Header: time_stamp=1, frame_id="w", sequence_num(3)=7
    raw_header = b'\x08\x01\x12\x01w\x18\x07'
    raw = bytes([0x0A, len(raw_header)]) + raw_header + b'\x12\x03\x0a\x01q'
    msg = codec.decode(JointState, raw)
    assert msg.header.time_stamp == 1 and msg.joints[0].name == 'q'
    assert codec.has_unknown_fields(msg)
    assert codec.unknown_field_numbers(msg) == {'JointState.Header': [3]}
    assert codec.encode(msg) == raw


def test_reject_unknown_is_opt_in():
    with pytest.raises(DecodeError, match='unknown fields'):
        codec.decode(Header, b'\x08\x01\x18\x07', reject_unknown=True)


@pytest.mark.parametrize('raw', [
    b'\x08',                       # tag without its varint
    b'\x08\xff',                   # truncated varint
    b'\x12\x05ab',                 # length 5 but only 2 bytes
    b'\x0a\x10\x08\x01',           # nested message overruns the buffer
    b'\x0f',                       # wire type 7 does not exist
    b'\x00\x01',                   # field number 0 is invalid
    b'\x12\x02\xff\xfe',           # frame_id is not UTF-8
    b'\x0a\x01x',                  # field 1 (uint64) sent length-delimited: wrong type
])
def test_bad_bytes_raise_named_error(raw):
    with pytest.raises(DecodeError):
        codec.decode(Header, raw)


def test_bad_nested_wire_type_is_rejected():
    # JointState.joints[0].position (double, field 2) sent as varint
    raw = b'\x12\x02\x10\x05'
    with pytest.raises(DecodeError, match='position'):
        codec.decode(JointState, raw)


def test_decode_rejects_non_bytes():
    with pytest.raises(DecodeError):
        codec.decode(Header, 'not bytes')


def test_type_names_accept_seed_and_array_spellings():
    assert message_class('pb:aimrt.protocols.sensor.JointState') is JointState
    assert message_class('pb:aimrt.protocols.sensor.JointStateArray') is JointState
    assert message_class('aimrt.protocols.sensor.JointCommandArray') is JointCommand
    assert message_class('pb:aimrt.protocols.sensor.TouchSensorStateArray') is TouchState
    assert type_name(ImuState) == 'pb:aimrt.protocols.sensor.ImuState'
    from aimrt_protocols_py.errors import UnknownMessageTypeError
    with pytest.raises(UnknownMessageTypeError):
        message_class('pb:aimrt.protocols.sensor.Nope')
