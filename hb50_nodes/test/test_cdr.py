# SPDX-License-Identifier: Apache-2.0
"""
The HB50 CDR codecs (hb50_nodes.cdr, on ros_wire) against rclpy.serialization, byte for byte.

For every message type it encodes (BridgeData, BridgeState, JointCommand, RobotState) and
hypothesis-generated values: the encoder's bytes equal serialize_message's at every offset
except the alignment padding (which Fast DDS leaves uninitialised: shown below), the padding
sits at the same offsets with the same length, and deserialize_message gives the message back.
For the two types it decodes (JointCommand, BridgeData): the fields equal deserialize_message's
for rclpy-serialized messages and for hand-made bytes rclpy must also read (invalid UTF-8,
embedded NULs); bytes rclpy rejects are rejected.
"""

from array import array
import math
import struct

from geometry_msgs import msg as geometry
from hb50_commons import msg as hb50
from hb50_nodes import cdr
from hypothesis import given, HealthCheck, settings, strategies as st
import numpy as np
import pytest
from rclpy.serialization import deserialize_message, serialize_message
from ros_wire import utf8
from ros_wire.testing import assert_same_wire, same_f64

SETTINGS = settings(max_examples=200, deadline=None, derandomize=True,
                    suppress_health_check=[HealthCheck.too_slow])

# Any text rclpy can send (no lone surrogates: UTF-8 cannot encode them), NUL included.
TEXT = st.text(st.characters(blacklist_categories=('Cs',)), max_size=12)
# float32 values, NaN and inf included. Not within 1e30 of FLT_MAX: with
# ROS_PYTHON_CHECK_FIELDS=1, rclpy's deserialize_message refuses its own serialization of
# values above 3.402823466e+38 (its bound is FLT_MAX rounded down), so no round trip exists.
F32 = st.one_of(st.floats(-3.3999999521443642e+38, 3.3999999521443642e+38, width=32,
                          allow_subnormal=False), st.sampled_from(
    [float('nan'), float('inf'), float('-inf'), -0.0, 1e-45]))
F64 = st.floats()
SEC = st.integers(-2 ** 31, 2 ** 31 - 1)
NSEC = st.integers(0, 2 ** 32 - 1)


def _unchecked(cls):
    """
    Return a constructor of the message class with field checks off (check_fields=False).

    The tests run with ROS_PYTHON_CHECK_FIELDS=1, which refuses NaN and inf in float fields;
    the wire must carry them (a NaN command is rejected by bridge_node, not by the writer).
    """
    def make(**kwargs):
        return cls(check_fields=False, **kwargs)
    make.__name__ = cls.__name__
    return make


GEOMETRY = ('Point', 'Pose', 'Quaternion', 'Twist', 'Vector3')
HB50 = ('BridgeData', 'BridgeState', 'JointCommand', 'LegState', 'RobotState')
Point, Pose, Quaternion, Twist, Vector3 = (_unchecked(getattr(geometry, n)) for n in GEOMETRY)
BridgeData, BridgeState, JointCommand, LegState, RobotState = (
    _unchecked(getattr(hb50, n)) for n in HB50)


def reference(raw, type_name):
    """Return rclpy's reading of `raw` as hb50_commons/msg/<type_name>."""
    return deserialize_message(raw, getattr(hb50, type_name))


def lists(elements, max_size=14):
    return st.lists(elements, max_size=max_size)


def f32_bytes(values):
    return array('f', values).tobytes()


def stamped(msg, sec, nanosec, frame_id):
    msg.header.stamp.sec, msg.header.stamp.nanosec = sec, nanosec
    msg.header.frame_id = frame_id
    return msg


def test_fast_dds_leaves_padding_uninitialised_so_padding_is_masked():
    """Why the comparison masks padding: rclpy's padding bytes are not reproducible."""
    msg = JointCommand(source_node='a', brake=[True])
    w = cdr.encode_joint_command(cdr.Writer(track_padding=True), 0, 0, '', 'a', [], [], [],
                                 [], [], [], [], [True])
    # '' frame_id: 4 + 1 bytes, then 3 padding bytes before source_node's length.
    assert w.padding[:3] == [4 + 8 + 5, 4 + 8 + 6, 4 + 8 + 7]
    assert_same_wire(w.getvalue(), w.padding, msg)


@SETTINGS
@given(sec=SEC, nanosec=NSEC, frame_id=TEXT, vec=st.tuples(*[F64] * 10),
       names=lists(TEXT), pos=lists(F32), vel=lists(F32), eff=lists(F32),
       temp=lists(st.integers(0, 255)), status=lists(st.integers(0, 65535)))
def test_bridge_data_encodes_like_rclpy(sec, nanosec, frame_id, vec, names, pos, vel, eff,
                                        temp, status):
    msg = stamped(BridgeData(), sec, nanosec, frame_id)
    msg.orientation = Quaternion(x=vec[0], y=vec[1], z=vec[2], w=vec[3])
    msg.angular_velocity = Vector3(x=vec[4], y=vec[5], z=vec[6])
    msg.linear_acceleration = Vector3(x=vec[7], y=vec[8], z=vec[9])
    msg.joint_name = names
    msg.joint_position, msg.joint_velocity, msg.joint_effort = pos, vel, eff
    msg.joint_temperature, msg.joint_status = temp, status
    w = cdr.encode_bridge_data(cdr.Writer(track_padding=True), sec, nanosec, frame_id,
                               vec[0:4], vec[4:7], vec[7:10], names, pos,
                               array('f', vel), eff, array('B', temp), array('H', status))
    back = assert_same_wire(w.getvalue(), w.padding, msg)
    assert f32_bytes(back.joint_position) == f32_bytes(pos)

    # Decoding: the fields deserialize_message gives, from rclpy's bytes.
    raw = serialize_message(msg)
    d = cdr.decode_bridge_data(raw)
    ref = reference(raw, 'BridgeData')
    assert (d.sec, d.nanosec, d.frame_id) == (ref.header.stamp.sec, ref.header.stamp.nanosec,
                                              ref.header.frame_id)
    o, g, a = ref.orientation, ref.angular_velocity, ref.linear_acceleration
    assert same_f64(d.orientation, (o.x, o.y, o.z, o.w))
    assert same_f64(d.angular_velocity, (g.x, g.y, g.z))
    assert same_f64(d.linear_acceleration, (a.x, a.y, a.z))
    assert d.joint_name == list(ref.joint_name)
    for field in ('joint_position', 'joint_velocity', 'joint_effort'):
        assert f32_bytes(getattr(d, field)) == f32_bytes(getattr(ref, field))
    assert list(d.joint_temperature) == list(ref.joint_temperature)
    assert list(d.joint_status) == list(ref.joint_status)


@SETTINGS
@given(floats=st.tuples(*[F32] * 10), enabled=st.booleans(), status=lists(TEXT),
       up_time=st.integers(-2 ** 31, 2 ** 31 - 1))
def test_bridge_state_encodes_like_rclpy(floats, enabled, status, up_time):
    fields = ('battery', 'bus_v', 'bus_i', 'bus_p', 'bus_pt', 'legs_v', 'charger_v',
              'bridge_t', 'ext1_t', 'ext2_t')
    msg = BridgeState(drives_enabled=enabled, status=status, up_time=up_time)
    for field, value in zip(fields, floats):
        setattr(msg, field, value)
    w = cdr.encode_bridge_state(cdr.Writer(track_padding=True), floats, enabled, status,
                                up_time)
    back = assert_same_wire(w.getvalue(), w.padding, msg)
    # A string stops at its first NUL on the wire (a C string), with rclpy as here.
    assert back.status == [utf8(t).decode() for t in status] and back.up_time == up_time


JOINT_COMMAND = {
    'sec': SEC, 'nanosec': NSEC, 'frame_id': TEXT, 'source': TEXT, 'names': lists(TEXT),
    'kp': lists(F32), 'ki': lists(F32), 'kd': lists(F32), 't_pos': lists(F32),
    't_vel': lists(F32), 't_trq': lists(F32), 'brake': lists(st.booleans())}


def joint_command(sec, nanosec, frame_id, source, names, kp, ki, kd, t_pos, t_vel, t_trq,
                  brake):
    msg = stamped(JointCommand(), sec, nanosec, frame_id)
    msg.source_node, msg.name, msg.brake = source, names, brake
    msg.kp, msg.ki, msg.kd, msg.t_pos, msg.t_vel, msg.t_trq = kp, ki, kd, t_pos, t_vel, t_trq
    return msg


def assert_decoded_command(d, ref):
    assert (d.sec, d.nanosec, d.frame_id) == (ref.header.stamp.sec, ref.header.stamp.nanosec,
                                              ref.header.frame_id)
    assert d.source_node == ref.source_node
    assert d.name == list(ref.name)
    for field in ('kp', 'ki', 'kd', 't_pos', 't_vel', 't_trq'):
        assert f32_bytes(getattr(d, field)) == f32_bytes(getattr(ref, field))
    assert d.brake == list(ref.brake)


@SETTINGS
@given(**JOINT_COMMAND)
def test_joint_command_encodes_and_decodes_like_rclpy(sec, nanosec, frame_id, source, names,
                                                      kp, ki, kd, t_pos, t_vel, t_trq, brake):
    msg = joint_command(sec, nanosec, frame_id, source, names, kp, ki, kd, t_pos, t_vel, t_trq,
                        brake)
    w = cdr.encode_joint_command(cdr.Writer(track_padding=True), sec, nanosec, frame_id,
                                 source, names, kp, array('f', ki), kd, t_pos, t_vel, t_trq,
                                 brake)
    assert_same_wire(w.getvalue(), w.padding, msg)
    raw = serialize_message(msg)
    assert_decoded_command(cdr.decode_joint_command(raw), reference(raw, 'JointCommand'))
    # The body (after the header) is what bridge_node compares to reuse a validation.
    body = cdr.joint_command_body(raw)
    tail = cdr.encode_joint_command(cdr.Writer(), 0, 0, '', source, names, kp, ki, kd, t_pos,
                                    t_vel, t_trq, brake).getvalue()
    assert len(body) == len(tail) - (4 + 8 + 4 + 1 + 3)     # after an aligned '' frame_id
    assert body[4:4 + len(utf8(source))] == utf8(source)


def _raw_command(source_bytes, name_bytes, brake_bytes):
    """Return a JointCommand whose strings and bools are arbitrary bytes (rclpy sends none)."""
    w = cdr.Writer()
    w.header(1, 2, 'f')
    for data in [source_bytes]:
        w.u32(len(data) + 1)
        w.buf += data + b'\x00'
    w.u32(len(name_bytes))
    for data in name_bytes:
        w.u32(len(data) + 1)
        w.buf += data + b'\x00'
    for _ in range(6):
        w.f32_seq([1.5])
    w.u32(len(brake_bytes))
    w.buf += bytes(brake_bytes)
    return w.getvalue()


@SETTINGS
@given(source=st.binary(max_size=20), names=lists(st.binary(max_size=8), 4),
       brake=lists(st.integers(0, 255), 4))
def test_decoder_reads_any_string_bytes_as_rclpy_does(source, names, brake):
    """Invalid UTF-8 -> U+FFFD, an embedded NUL ends the string, a bool byte 2..255 is True."""
    raw = _raw_command(source, names, brake)
    assert_decoded_command(cdr.decode_joint_command(raw), reference(raw, 'JointCommand'))


def test_decoder_rejects_what_rclpy_rejects():
    good = _raw_command(b'me', [b'a'], [1])
    for bad in (good[:-1], good[:10], b'\x01\x00\x00\x00', good[:4]):
        with pytest.raises(Exception):
            reference(bad, 'JointCommand')
        with pytest.raises(cdr.CdrError):
            cdr.decode_joint_command(bad)


def test_float32_is_the_c_cast_of_the_python_float():
    """A Python float outside float32 becomes inf, one between two float32 rounds to nearest."""
    w = cdr.encode_bridge_state(cdr.Writer(), (1e39, -1e39, 0.1) + (0.0,) * 7, False, [], 0)
    values = struct.unpack_from('<10f', w.getvalue(), 4)
    assert values[0] == math.inf and values[1] == -math.inf
    assert values[2] == struct.unpack('<f', struct.pack('<f', 0.1))[0]


LEG = st.tuples(TEXT, st.booleans(), st.tuples(*[F64] * 3), st.tuples(*[F64] * 3),
                st.tuples(*[F64] * 3))


def robot_state(sec, nanosec, frame_id, legs, vec, modes):
    """Build the rclpy RobotState of generated values (legs: name, contact, pos, vel, force)."""
    msg = stamped(RobotState(), sec, nanosec, frame_id)
    msg.leg = [LegState(leg_name=n, contact=c, foot_pos_body=Vector3(x=p[0], y=p[1], z=p[2]),
                        foot_vel=Vector3(x=v[0], y=v[1], z=v[2]),
                        foot_force_est=Vector3(x=f[0], y=f[1], z=f[2]))
               for n, c, p, v, f in legs]
    msg.pose = Pose(position=Point(x=vec[0], y=vec[1], z=vec[2]),
                    orientation=Quaternion(x=vec[3], y=vec[4], z=vec[5], w=vec[6]))
    msg.body_vel = Twist(linear=Vector3(x=vec[7], y=vec[8], z=vec[9]),
                         angular=Vector3(x=vec[10], y=vec[11], z=vec[12]))
    msg.world_vel = Twist(linear=Vector3(x=vec[13], y=vec[14], z=vec[15]),
                          angular=Vector3(x=vec[16], y=vec[17], z=vec[18]))
    msg.motion_mode, msg.motion_type, msg.motion_gait = (bytes([m]) for m in modes)
    return msg


@SETTINGS
@given(sec=SEC, nanosec=NSEC, frame_id=TEXT, legs=lists(LEG, 5), vec=st.tuples(*[F64] * 19),
       modes=st.tuples(*[st.integers(0, 255)] * 3))
def test_robot_state_encodes_like_rclpy(sec, nanosec, frame_id, legs, vec, modes):
    msg = robot_state(sec, nanosec, frame_id, legs, vec, modes)
    w = cdr.encode_robot_state(cdr.Writer(track_padding=True), sec, nanosec, frame_id, legs,
                               vec[0:3], vec[3:7], vec[7:10], vec[10:13], vec[13:16],
                               vec[16:19], *modes)
    back = assert_same_wire(w.getvalue(), w.padding, msg)
    assert [leg.leg_name for leg in back.leg] == [utf8(n).decode() for n, *_ in legs]


# --- the fixed layouts the nodes publish with, and the fast decoders ------------------------

NAMES12 = st.lists(TEXT, min_size=12, max_size=12)


def f32_list(n):
    return st.lists(F32, min_size=n, max_size=n)


def assert_layout_wire(layout, values, msg):
    """Check a FixedLayout's bytes: rclpy's except at its padding offsets (zero here)."""
    ours = layout.pack(*values)
    theirs = serialize_message(msg)
    assert len(ours) == len(theirs) == layout.size
    pad = set(layout.padding)
    assert all(ours[i] == 0 for i in pad)
    assert all(a == b for i, (a, b) in enumerate(zip(ours, theirs)) if i not in pad)
    return ours


@SETTINGS
@given(sec=SEC, nanosec=NSEC, frame_id=TEXT, names=NAMES12, vec=st.tuples(*[F64] * 10),
       pos=f32_list(12), vel=f32_list(12), eff=f32_list(12),
       temp=st.lists(st.integers(0, 255), min_size=12, max_size=12),
       status=st.lists(st.integers(0, 65535), min_size=12, max_size=12))
def test_bridge_data_layout_and_decoder_match_rclpy(sec, nanosec, frame_id, names, vec, pos,
                                                    vel, eff, temp, status):
    msg = stamped(BridgeData(), sec, nanosec, frame_id)
    msg.orientation = Quaternion(x=vec[0], y=vec[1], z=vec[2], w=vec[3])
    msg.angular_velocity = Vector3(x=vec[4], y=vec[5], z=vec[6])
    msg.linear_acceleration = Vector3(x=vec[7], y=vec[8], z=vec[9])
    msg.joint_name = names
    msg.joint_position, msg.joint_velocity, msg.joint_effort = pos, vel, eff
    msg.joint_temperature, msg.joint_status = temp, status
    layout = cdr.bridge_data_layout(frame_id, names)
    np_pos = np.array(pos, dtype=np.float64)    # the node packs float64 numpy arrays
    assert_layout_wire(layout, (sec, nanosec, *vec, cdr.f32_bytes(np_pos), cdr.f32_bytes(vel),
                                cdr.f32_bytes(eff), bytes(temp),
                                np.array(status, np.uint16).astype('<u2').tobytes()), msg)
    # The fast decoder (after learning the shape) reads rclpy's bytes as the generic one.
    raw = serialize_message(msg)
    generic = cdr.decode_bridge_data(raw)
    decoder = cdr.BridgeDataDecoder()
    decoder.learn(generic)
    fast = decoder.decode(raw)
    for field in cdr.DecodedBridgeData.__slots__:
        a, b = getattr(fast, field), getattr(generic, field)
        if field in ('orientation', 'angular_velocity', 'linear_acceleration'):
            assert same_f64(a, b)
        elif isinstance(a, array):
            assert a.typecode == b.typecode and a.tobytes() == b.tobytes()
        else:
            assert a == b, field


@SETTINGS
@given(sec=SEC, nanosec=NSEC, frame_id=TEXT, source=TEXT, names=NAMES12,
       arrays=st.lists(f32_list(12), min_size=6, max_size=6),
       brake=st.lists(st.booleans(), min_size=12, max_size=12))
def test_joint_command_layout_and_decoder_match_rclpy(sec, nanosec, frame_id, source, names,
                                                      arrays, brake):
    msg = joint_command(sec, nanosec, frame_id, source, names, *arrays, brake)
    layout = cdr.joint_command_layout(frame_id, source, names)
    assert_layout_wire(layout, (sec, nanosec, *(cdr.f32_bytes(np.array(a)) for a in arrays),
                                bytes(brake)), msg)
    raw = serialize_message(msg)
    decoder = cdr.JointCommandDecoder()
    decoder.learn(cdr.decode_joint_command(raw))
    assert_decoded_command(decoder.decode(raw), reference(raw, 'JointCommand'))
    # Another source (or other names) does not match the learnt shape: generic decoder.
    other = joint_command(sec, nanosec, frame_id, source + 'x', names, *arrays, brake)
    raw = serialize_message(other)
    assert_decoded_command(decoder.decode(raw), reference(raw, 'JointCommand'))


@SETTINGS
@given(sec=SEC, nanosec=NSEC, frame_id=TEXT, legs=st.lists(LEG, min_size=4, max_size=4),
       vec=st.tuples(*[F64] * 19), modes=st.tuples(*[st.integers(0, 255)] * 3))
def test_robot_state_layout_matches_rclpy(sec, nanosec, frame_id, legs, vec, modes):
    msg = robot_state(sec, nanosec, frame_id, legs, vec, modes)
    values = [sec, nanosec]
    for _, contact, p, v, f in legs:
        values += [contact, *p, *v, *f]
    layout = cdr.robot_state_layout(frame_id, [n for n, *_ in legs])
    assert_layout_wire(layout, values + list(vec) + list(modes), msg)


@SETTINGS
@given(floats=st.tuples(*[F32] * 10), enabled=st.booleans(), status=lists(TEXT),
       up_time=st.integers(-2 ** 31, 2 ** 31 - 1))
def test_bridge_state_layout_matches_rclpy(floats, enabled, status, up_time):
    fields = ('battery', 'bus_v', 'bus_i', 'bus_p', 'bus_pt', 'legs_v', 'charger_v',
              'bridge_t', 'ext1_t', 'ext2_t')
    msg = BridgeState(drives_enabled=enabled, status=status, up_time=up_time)
    for field, value in zip(fields, floats):
        setattr(msg, field, value)
    layout = cdr.bridge_state_layout(status)
    assert_layout_wire(layout, (cdr.f32_bytes(floats), enabled, up_time), msg)


def test_layout_unpack_refuses_other_shapes():
    layout = cdr.joint_command_layout('base_link', 'control_node', ['a', 'b'])
    good = layout.pack(1, 2, *[cdr.f32_bytes([1.0, 2.0])] * 6, bytes(2))
    assert layout.unpack(good)[:2] == [1, 2]
    assert layout.unpack(good[:-1]) is None
    other = cdr.joint_command_layout('base_link', 'control_nodf', ['a', 'b'])
    assert layout.unpack(other.pack(1, 2, *[cdr.f32_bytes([1.0, 2.0])] * 6, bytes(2))) is None
