# Copyright 2025 The horus_msg_py authors
# SPDX-License-Identifier: Apache-2.0
import struct

from horus_msg_py import (active_joints, BatteryState, joint_state, JointState, LaserScan,
                          LayoutError, MESSAGE_TYPES, NameTooLongError, NavSatFix, Odometry,
                          RangeSensor, Temperature)
from horus_msg_py.layouts import PADDING
import numpy as np
import pytest


def test_laser_scan_bytes_at_spec_offsets():
    scan = LaserScan(ranges=np.arange(360, dtype=np.float32) / 10, angle_min=-1.5,
                     angle_max=1.5, range_min=0.1, range_max=30.0, angle_increment=0.25,
                     time_increment=0.001, scan_time=0.1, timestamp_ns=1_700_000_000_123)
    raw = scan.to_bytes()
    assert len(raw) == 1480
    assert struct.unpack_from('<f', raw, 4 * 7)[0] == pytest.approx(0.7)
    assert struct.unpack_from('<7f', raw, 1440) == tuple(
        np.float32(v) for v in (-1.5, 1.5, 0.1, 30.0, 0.25, 0.001, 0.1))
    assert raw[1468:1472] == b'\0' * 4
    assert struct.unpack_from('<Q', raw, 1472)[0] == 1_700_000_000_123


def test_from_bytes_is_zero_copy_and_to_bytes_zeroes_padding():
    raw = bytearray(RangeSensor(sensor_type=1, range=2.5, timestamp_ns=9).to_bytes())
    raw[1:4] = b'\xaa\xbb\xcc'            # garbage in padding, as HORUS leaves it
    view = RangeSensor.from_bytes(raw)
    assert view.range == 2.5
    raw[16:20] = struct.pack('<f', 3.5)   # the view sees writes to the buffer
    assert view.range == 3.5
    view.min_range = 0.25                 # and writes through to it
    assert struct.unpack_from('<f', raw, 8)[0] == 0.25
    out = view.to_bytes()
    assert out[1:4] == b'\0\0\0' and out[20:24] == b'\0' * 4
    assert out[16:20] == raw[16:20]


@pytest.mark.parametrize('type_name', sorted(MESSAGE_TYPES))
def test_round_trip_random_bytes_except_padding(type_name):
    cls = MESSAGE_TYPES[type_name]
    rng = np.random.default_rng(7)
    raw = bytearray(rng.integers(0, 256, cls.SIZE, dtype=np.uint8).tobytes())
    for start in cls._NAME_OFFSETS:       # names must be valid NUL-terminated UTF-8
        raw[start:start + 32] = b'frame_%d' % start + b'\0' * (32 - len(b'frame_%d' % start))
    msg = cls.from_bytes(bytes(raw))
    out = msg.to_bytes()
    pad = np.zeros(cls.SIZE, dtype=bool)
    for start, end in PADDING[type_name]:
        pad[start:end] = True
    a, b = np.frombuffer(bytes(raw), np.uint8), np.frombuffer(out, np.uint8)
    assert np.array_equal(a[~pad], b[~pad])
    assert not b[pad].any()
    assert cls.from_bytes(out) == msg


def test_frame_id_limit_is_an_error_not_a_cut():
    msg = Temperature(frame_id='x' * 31)
    assert msg.frame_id == 'x' * 31
    with pytest.raises(NameTooLongError):
        msg.frame_id = 'y' * 32
    assert msg.frame_id == 'x' * 31       # unchanged after the rejected write
    with pytest.raises(NameTooLongError):
        Odometry(child_frame_id='\u00e9' * 16)   # 32 UTF-8 bytes
    with pytest.raises(LayoutError):
        Temperature(frame_id='a\0b')


def test_unterminated_name_in_buffer_is_rejected():
    raw = bytearray(Temperature().to_bytes())
    raw[16:48] = b'z' * 32
    with pytest.raises(NameTooLongError):
        Temperature.from_bytes(raw).frame_id


def test_name_tail_after_nul_is_zeroed():
    raw = bytearray(Temperature(frame_id='map').to_bytes())
    raw[20:30] = b'garbage!!!'
    msg = Temperature.from_bytes(raw)
    assert msg.frame_id == 'map'
    assert msg.to_bytes()[16:48] == b'map' + b'\0' * 29


def test_joint_state_limits():
    js = joint_state(['j%d' % i for i in range(16)], positions=range(16), timestamp_ns=3)
    names, pos, vel, eff = active_joints(js)
    assert names == ['j%d' % i for i in range(16)] and list(pos) == list(range(16))
    with pytest.raises(LayoutError):
        joint_state(['j%d' % i for i in range(17)])
    with pytest.raises(NameTooLongError):
        joint_state(['n' * 32])
    with pytest.raises(LayoutError):
        joint_state(['a', 'b'], positions=[1.0])
    bad = bytearray(JointState().to_bytes())
    bad[512] = 17
    with pytest.raises(LayoutError):
        active_joints(JointState.from_bytes(bad))


def test_value_checks():
    with pytest.raises(LayoutError):
        LaserScan(ranges=[1.0] * 359)
    with pytest.raises(LayoutError):
        NavSatFix(status=256)
    with pytest.raises(LayoutError):
        NavSatFix(satellites_visible=-1)
    with pytest.raises(LayoutError):
        BatteryState(cell_count=2.5)
    with pytest.raises(LayoutError):
        BatteryState(voltage=1e39)
    with pytest.raises(TypeError):
        BatteryState(volts=1.0)
    with pytest.raises(LayoutError):
        LaserScan.from_bytes(b'\0' * 1479)


def test_nested_views_write_through():
    odom = Odometry()
    odom.pose.theta = 1.25
    odom.twist.angular[2] = 0.5
    raw = odom.to_bytes()
    assert struct.unpack_from('<d', raw, 16)[0] == 1.25
    assert struct.unpack_from('<d', raw, 32 + 24 + 16)[0] == 0.5
    odom.pose = {'x': 2.0, 'y': 3.0}
    assert (odom.pose.x, odom.pose.y, odom.pose.theta) == (2.0, 3.0, 0.0)
