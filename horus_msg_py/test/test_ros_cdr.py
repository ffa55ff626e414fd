# Copyright 2025 The horus_msg_py authors
# SPDX-License-Identifier: Apache-2.0
"""ros_cdr against rclpy: byte for byte (padding masked), round trip, same errors."""

import struct

from horus_msg_py import ConversionError, LaserScan, LayoutError, NameTooLongError
from horus_msg_py.ros_cdr import CDR_ENCODERS, LaserScanCdr
from horus_msg_py.ros_conversions import laser_scan_to_ros
from hypothesis import given, settings, strategies as st
import numpy as np
import pytest
from rclpy.serialization import deserialize_message, serialize_message
from sensor_msgs import msg as sm

# finite float32 values rclpy's field check accepts, and the infinities
F32_LIMIT = 3.3999999521443642e+38
F32 = st.one_of(st.floats(-F32_LIMIT, F32_LIMIT, width=32), st.sampled_from([-np.inf, np.inf]))


def padding(frame_id):
    """Offsets of the alignment bytes after header.frame_id (Fast DDS leaves them unset)."""
    end = 4 + 8 + 4 + len(frame_id.encode('utf-8')) + 1
    return set(range(end, end + (-(end - 4)) % 4))


def assert_same_as_rclpy(raw, frame_id):
    ours = LaserScanCdr(frame_id)(raw)
    ref = serialize_message(laser_scan_to_ros(LaserScan.from_bytes(raw), frame_id))
    assert len(ours) == len(ref)
    pad = padding(frame_id)
    assert [i for i in range(len(ref)) if i not in pad and ours[i] != ref[i]] == []
    assert all(ours[i] == 0 for i in pad)
    # round trip: rclpy reads our bytes back into the same message (compared as bytes,
    # NaN != NaN)
    again = serialize_message(deserialize_message(ours, sm.LaserScan))
    assert [i for i in range(len(ref)) if i not in pad and again[i] != ours[i]] == []


def scan_bytes(ranges, scalars, stamp):
    names = ('angle_min', 'angle_max', 'range_min', 'range_max', 'angle_increment',
             'time_increment', 'scan_time')
    return LaserScan(ranges=ranges, timestamp_ns=stamp, **dict(zip(names, scalars))).to_bytes()


@pytest.mark.parametrize('frame_id', ['', 'l', 'la', 'las', 'lase', 'laser', 'x' * 31, 'λ'])
def test_laser_scan_equals_rclpy_for_every_padding_length(frame_id):
    raw = scan_bytes(np.linspace(0.1, 30.0, 360), [-3.1, 3.1, 0.05, 30.0, 0.0175, 1e-5, 0.1],
                     1_700_000_000_123_456_789)
    assert_same_as_rclpy(raw, frame_id)


def test_special_values_are_copied_exactly():
    ranges = np.full(360, np.inf)
    ranges[::3] = np.nan
    ranges[1::7] = -0.0
    raw = scan_bytes(ranges, [float('nan'), float('inf'), -float('inf'), 0.0, -0.0, 1e-38, 3e38],
                     0)
    assert_same_as_rclpy(raw, 'laser')


@settings(max_examples=60, deadline=None, derandomize=True, database=None)
@given(ranges=st.lists(F32, min_size=360, max_size=360), scalars=st.lists(F32, min_size=7,
                                                                          max_size=7),
       stamp=st.integers(0, (2**31 - 1) * 10**9 + 999_999_999),
       frame_id=st.text(st.characters(blacklist_categories=('Cs',), blacklist_characters='\0'),
                        max_size=10).filter(lambda t: len(t.encode()) <= 31))
def test_laser_scan_equals_rclpy_for_any_values(ranges, scalars, stamp, frame_id):
    assert_same_as_rclpy(scan_bytes(ranges, scalars, stamp), frame_id)


def test_same_errors_as_the_message_path():
    too_late = scan_bytes(np.ones(360), [0.0] * 7, 2**31 * 10**9)
    with pytest.raises(ConversionError) as message_path:
        laser_scan_to_ros(LaserScan.from_bytes(too_late), 'laser')
    with pytest.raises(ConversionError) as cdr_path:
        LaserScanCdr('laser')(too_late)
    assert str(cdr_path.value) == str(message_path.value)
    with pytest.raises(LayoutError):
        LaserScanCdr('laser')(too_late[:-1])
    with pytest.raises(NameTooLongError):
        LaserScanCdr('x' * 32)
    with pytest.raises(LayoutError):
        LaserScanCdr('a\0b')


def test_registry_names_the_encoded_types():
    assert CDR_ENCODERS == {'LaserScan': LaserScanCdr}
    assert struct.unpack_from('<I', LaserScanCdr('')(scan_bytes(np.ones(360), [0.0] * 7, 5)),
                              4 + 8)[0] == 1   # '' is one NUL byte
