# SPDX-License-Identifier: Apache-2.0
"""
The node's pre-serialized RobstrideState and JointState against rclpy, byte for byte.

For every message type state_cdr encodes: the bytes equal
rclpy.serialization.serialize_message of the same message at every offset but the alignment
padding (Fast DDS leaves padding uninitialised; ours is zero, at the same offsets), and
deserialize_message gives the values back (round trip). Hypothesis, derandomized.
"""

from hypothesis import given, settings, strategies as st
from rclpy.serialization import deserialize_message
from robstride_interfaces.msg import RobstrideState
from robstride_sim.state_cdr import StateEncoder
from ros_wire.testing import assert_same_wire, same_f64
from sensor_msgs.msg import JointState

SETTINGS = settings(max_examples=150, derandomize=True, deadline=None, database=None)
SEC = st.integers(-2 ** 31, 2 ** 31 - 1)
NSEC = st.integers(0, 10 ** 9 - 1)
F64 = st.floats(allow_nan=True, allow_infinity=True)
# Joint names as parameters give them: any text (rclpy sends UTF-8 up to a NUL).
NAME = st.text(max_size=12)


@st.composite
def joints(draw, min_size=1, max_size=12):
    n = draw(st.integers(min_size, max_size))
    ids = draw(st.lists(st.integers(1, 127), min_size=n, max_size=n, unique=True))
    return ids


@SETTINGS
@given(ids=joints(), sec=SEC, nanosec=NSEC, comm_state=st.sampled_from([0, -1, -2]),
       data=st.data())
def test_robstride_state_matches_rclpy(ids, sec, nanosec, comm_state, data):
    n = len(ids)
    enabled = data.draw(st.lists(st.booleans(), min_size=n, max_size=n))
    run_state = data.draw(st.lists(st.integers(-2 ** 31, 2 ** 31 - 1), min_size=n, max_size=n))
    fault_bits = data.draw(st.lists(st.integers(0, 2 ** 32 - 1), min_size=n, max_size=n))
    enc = StateEncoder(ids, [f'j{i}' for i in range(n)])
    msg = RobstrideState(comm_state=comm_state, id=ids, enabled=enabled, run_state=run_state,
                         fault_bits=fault_bits)
    msg.header.stamp.sec, msg.header.stamp.nanosec = sec, nanosec
    ours = enc.encode_state(sec, nanosec, comm_state, enabled, run_state, fault_bits)
    back = assert_same_wire(ours, enc.state.padding, msg, enc.state.size)
    assert (back.header.stamp.sec, back.header.stamp.nanosec) == (sec, nanosec)
    assert back.header.frame_id == ''
    assert back.comm_state == comm_state
    assert list(back.id) == ids
    assert list(back.enabled) == enabled
    assert list(back.run_state) == run_state
    assert list(back.fault_bits) == fault_bits


@SETTINGS
@given(names=st.lists(NAME, min_size=1, max_size=12), sec=SEC, nanosec=NSEC, data=st.data())
def test_joint_state_matches_rclpy(names, sec, nanosec, data):
    n = len(names)
    position, velocity, effort = (
        data.draw(st.lists(F64, min_size=n, max_size=n)) for _ in range(3))
    enc = StateEncoder(list(range(1, n + 1)), names)
    msg = JointState(name=names, position=position, velocity=velocity, effort=effort)
    msg.header.stamp.sec, msg.header.stamp.nanosec = sec, nanosec
    ours = enc.encode_joint_state(sec, nanosec, position, velocity, effort)
    back = assert_same_wire(ours, enc.joint_state.padding, msg, enc.joint_state.size)
    assert (back.header.stamp.sec, back.header.stamp.nanosec) == (sec, nanosec)
    # rclpy sends a name up to its first NUL; so does the encoder.
    assert list(back.name) == [name.split('\x00')[0] for name in names]
    for ref, got in ((position, back.position), (velocity, back.velocity),
                     (effort, back.effort)):
        assert same_f64(ref, list(got))


def test_padding_sits_where_cdr_aligns():
    """A 2-joint state: 3 bytes after the empty frame_id, 2 after the bool[2] (to int32)."""
    enc = StateEncoder([1, 2], ['joint_1', 'joint_2'])
    # header: stamp 8 at 4..11, frame_id length 12..15, NUL 16, padding 17..19.
    assert enc.state.padding[:3] == (17, 18, 19)
    data = enc.encode_state(1, 2, 0, [True, False], [2, 0], [0, 128])
    assert data[:4] == b'\x00\x01\x00\x00'
    back = deserialize_message(data, RobstrideState)
    assert list(back.enabled) == [True, False] and list(back.fault_bits) == [0, 128]
