# SPDX-License-Identifier: Apache-2.0
"""command_cdr.decode gives exactly the fields rclpy's own deserialization gives."""

from builtin_interfaces.msg import Time
from hypothesis import given, settings, strategies as st
import pytest
from rclpy.serialization import serialize_message
from robstride_sim.command_cdr import _decode, _Malformed, decode
from sensor_msgs.msg import JointState
from std_msgs.msg import Header

floats = st.floats(allow_nan=True, allow_infinity=True, width=64)
texts = st.text(st.characters(blacklist_characters='\x00', blacklist_categories=('Cs',)),
                max_size=20)


@settings(max_examples=300, deadline=None)
@given(frame=texts, sec=st.integers(-2**31, 2**31 - 1), names=st.lists(texts, max_size=14),
       position=st.lists(floats, max_size=14), velocity=st.lists(floats, max_size=14),
       effort=st.lists(floats, max_size=14))
def test_fields_equal_rclpy_s(frame, sec, names, position, velocity, effort):
    msg = JointState(header=Header(stamp=Time(sec=sec), frame_id=frame), name=names,
                     position=position, velocity=velocity, effort=effort)
    raw = serialize_message(msg)
    got = _decode(raw)          # the direct path itself, not its fallback
    want = (list(msg.name), list(msg.position), list(msg.velocity), list(msg.effort))
    assert [repr(x) for x in got] == [repr(x) for x in want]   # NaN equal to NaN
    assert [repr(x) for x in decode(raw)] == [repr(x) for x in want]


def test_bytes_that_do_not_add_up_go_to_rclpy():
    raw = serialize_message(JointState(name=['joint_1'], position=[0.5]))
    with pytest.raises(_Malformed):
        _decode(raw[:40])                       # cut inside position
    with pytest.raises(_Malformed):
        _decode(b'\x00\x00' + raw[2:])          # big-endian encapsulation: not read here
    with pytest.raises(Exception):
        decode(raw[:40])                        # rclpy cannot read it either
    assert decode(raw) == (['joint_1'], [0.5], [], [])
