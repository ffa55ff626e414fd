# SPDX-License-Identifier: Apache-2.0
"""
ros_wire against rclpy.serialization on a test message, sensor_msgs/BatteryState.

BatteryState mixes every alignment ros_wire handles (a header string, float32 scalars,
uint8 and bool bytes, float32[] sequences, trailing strings), so its encoding has padding
in several places. Checked: the Writer's and a FixedLayout's bytes equal rclpy's at every
offset but the padding, both report the same padding offsets (zeros), float32 values are
cast as rclpy casts them, and a layout refuses values of the wrong shape.
"""

from array import array
import math
import struct
import subprocess
import sys

from hypothesis import given, settings, strategies as st
import numpy as np
import pytest
from ros_wire import (CdrError, ENCAPSULATION, f32_bytes, FixedLayout, HEADER_SIZE, padding,
                      Reader, Writer)
from ros_wire.testing import assert_same_wire, padding_runs
from sensor_msgs.msg import BatteryState

SETTINGS = settings(max_examples=60, deadline=None, derandomize=True)
TEXT = st.text(st.characters(blacklist_categories=('Cs',)), max_size=9)
# float32 values rclpy's field check accepts (its bound is FLT_MAX rounded down)
F32 = st.floats(-3.3999999521443642e+38, 3.3999999521443642e+38, width=32,
                allow_nan=False)
SEC = st.integers(-2 ** 31, 2 ** 31 - 1)
NSEC = st.integers(0, 2 ** 32 - 1)
SCALARS = ('voltage', 'temperature', 'current', 'charge', 'capacity', 'design_capacity',
           'percentage')


def battery(sec, nanosec, frame_id, floats, status, cells, location, serial):
    msg = BatteryState()
    msg.header.stamp.sec, msg.header.stamp.nanosec = sec, nanosec
    msg.header.frame_id = frame_id
    for name, value in zip(SCALARS, floats):
        setattr(msg, name, value)
    msg.power_supply_status, msg.power_supply_health, msg.power_supply_technology = status
    msg.present = True
    msg.cell_voltage = cells
    msg.cell_temperature = list(reversed(cells))
    msg.location, msg.serial_number = location, serial
    return msg


def write_battery(w, sec, nanosec, frame_id, floats, status, cells, location, serial):
    w.header(sec, nanosec, frame_id)
    w.f32s(floats)
    for value in status:
        w.u8(value)
    w.boolean(True)
    w.f32_seq(cells)
    w.f32_seq(list(reversed(cells)))
    w.string(location)
    w.string(serial)
    return w


def battery_layout(frame_id, n_cells, location, serial):
    """pack(sec, nanosec, 7 floats, 3 status bytes, present, cell_voltage, cell_temperature)."""
    return (FixedLayout().header(frame_id).var('f', 7).var('B', 3).var('?')
            .u32(n_cells).var_array('f', n_cells).u32(n_cells).var_array('f', n_cells)
            .string(location).string(serial).build())


@SETTINGS
@given(sec=SEC, nanosec=NSEC, frame_id=TEXT, floats=st.lists(F32, min_size=7, max_size=7),
       status=st.tuples(*[st.integers(0, 255)] * 3), cells=st.lists(F32, max_size=5),
       location=TEXT, serial=TEXT)
def test_writer_and_layout_match_rclpy(sec, nanosec, frame_id, floats, status, cells,
                                       location, serial):
    msg = battery(sec, nanosec, frame_id, floats, status, cells, location, serial)
    w = write_battery(Writer(track_padding=True), sec, nanosec, frame_id, floats, status,
                      cells, location, serial)
    back = assert_same_wire(w.getvalue(), w.padding, msg)
    assert back == msg

    layout = battery_layout(frame_id, len(cells), location, serial)
    values = [sec, nanosec, *floats, *status, True, f32_bytes(cells),
              f32_bytes(list(reversed(cells)))]
    ours = layout.pack(*values)
    assert ours == w.getvalue()
    assert layout.padding == tuple(w.padding)
    assert_same_wire(ours, layout.padding, msg, size=layout.size)
    assert layout.unpack(ours)[:12] == values[:12]
    assert layout.unpack(ours)[12:] == values[12:]


def test_padding_offsets_and_mask():
    """An empty frame_id: 3 padding bytes before voltage; 3 before the first length."""
    layout = battery_layout('', 1, 'a', '')
    # stamp 4..11, length 12..15, NUL 16, voltage at 20 (4-aligned from the header's end)
    # 7 floats 20..47, 4 bytes 48..51: cell_voltage's length at 52 needs no padding; the
    # cells end at 68, location 'a' takes 68..73, serial_number's length starts at 76
    assert layout.padding == (17, 18, 19, 74, 75)
    assert padding_runs(layout.padding) == [3, 2]
    data = layout.pack(1, 2, *[0.5] * 7, 1, 2, 3, True, f32_bytes([1.0]), f32_bytes([1.0]))
    assert all(data[i] == 0 for i in layout.padding)
    assert data[:HEADER_SIZE] == ENCAPSULATION
    msg = battery(1, 2, '', [0.5] * 7, (1, 2, 3), [1.0], 'a', '')
    assert_same_wire(data, layout.padding, msg, size=layout.size)
    # the mask is what lets the comparison pass; a wrong byte elsewhere is still caught
    wrong = bytearray(data)
    wrong[20] ^= 1
    with pytest.raises(AssertionError):
        assert_same_wire(bytes(wrong), layout.padding, msg)
    dirty = bytearray(data)
    dirty[18] = 7
    with pytest.raises(AssertionError):
        assert_same_wire(bytes(dirty), layout.padding, msg)


def test_padding_rule():
    assert [padding(offset, 8) for offset in range(9)] == [0, 7, 6, 5, 4, 3, 2, 1, 0]
    assert [padding(offset, 1) for offset in range(3)] == [0, 0, 0]
    w = Writer(track_padding=True)
    w.u8(1)
    w.f64s(struct.Struct('<d'), [1.0])
    assert w.padding == list(range(HEADER_SIZE + 1, HEADER_SIZE + 8))


def test_float32_casts_as_rclpy():
    """float32: rounded to nearest like rclpy; an array element out of range is inf."""
    msg = battery(0, 0, '', [0.1, 1 / 3, -2.5e-39, 1e-45, 3.4e38, -0.0, 65504.01],
                  (0, 0, 0), [0.1, 1e-40], '', '')
    floats = [getattr(msg, name) for name in SCALARS]
    layout = battery_layout('', 2, '', '')
    data = layout.pack(0, 0, 0.1, 1 / 3, -2.5e-39, 1e-45, 3.4e38, -0.0, 65504.01, 0, 0, 0,
                       True, f32_bytes(np.array([0.1, 1e-40])),
                       f32_bytes(np.array([1e-40, 0.1])))
    assert_same_wire(data, layout.padding, msg)
    assert struct.unpack_from('<7f', data, 20) == tuple(array('f', floats))
    assert f32_bytes([1e39, -1e39, 0.1]) == f32_bytes(np.array([1e39, -1e39, 0.1]))
    inf, neg_inf, tenth = struct.unpack('<3f', f32_bytes([1e39, -1e39, 0.1]))
    assert math.isinf(inf) and inf > 0 and math.isinf(neg_inf) and neg_inf < 0
    assert tenth == array('f', [0.1])[0] != 0.1


def test_layout_refuses_wrong_shape():
    layout = battery_layout('base', 2, '', '')
    good = [0, 0, *[0.0] * 7, 0, 0, 0, True, f32_bytes([1, 2]), f32_bytes([3, 4])]
    assert len(layout.pack(*good)) == layout.size
    with pytest.raises(ValueError, match='values expected'):
        layout.pack(*good[:-1])
    with pytest.raises(ValueError, match='array of 8 bytes'):
        layout.pack(*good[:-1], f32_bytes([3, 4, 5]))
    with pytest.raises(ValueError, match='array of 8 bytes'):
        layout.pack(*good[:-2], f32_bytes([1]), good[-1])
    with pytest.raises(struct.error):
        layout.pack(2 ** 31, *good[1:])           # int32 sec out of range
    # bytes of another shape are not this layout's
    assert layout.unpack(battery_layout('base', 3, '', '').pack(
        0, 0, *[0.0] * 7, 0, 0, 0, True, f32_bytes([1, 2, 3]), f32_bytes([3, 4, 5]))) is None
    other_frame = battery_layout('bise', 2, '', '').pack(*good)
    assert layout.unpack(other_frame) is None
    assert layout.unpack(b'\x01\x00' + layout.pack(*good)[2:]) is None


def test_layout_frozen_after_build():
    layout = FixedLayout().var('d')
    with pytest.raises(RuntimeError, match='before build'):
        layout.pack(1.0)
    layout.build()
    for declare in (lambda: layout.var('d'), lambda: layout.u32(1),
                    lambda: layout.string('x'), lambda: layout.var_array('f', 2),
                    lambda: layout.build()):
        with pytest.raises(RuntimeError, match='frozen'):
            declare()
    assert layout.size == HEADER_SIZE + 8
    assert layout.padding == ()


def test_sizes_come_from_struct_codes():
    lay = FixedLayout().var('B').var('q').var('h').const_array('i', [7, 8]).build()
    assert lay.size == HEADER_SIZE + 1 + 7 + 8 + 2 + 2 + 8
    for code in ('s', 'x', 'dd', '', 'P'):
        with pytest.raises(ValueError, match='CDR primitive'):
            FixedLayout().var(code)


def test_reader_refuses_bad_bytes():
    with pytest.raises(CdrError, match='encapsulation'):
        Reader(b'\x00\x00\x00\x00')
    data = Writer()
    data.string('abc')
    with pytest.raises(CdrError, match='needed'):
        Reader(data.getvalue()[:-1]).string()
    zero_length = Writer()
    zero_length.u32(0)
    with pytest.raises(CdrError, match='NUL'):
        Reader(zero_length.getvalue()).string()
    w = write_battery(Writer(), 3, 4, 'f', [1.5] * 7, (1, 2, 3), [0.25], 'l', 's')
    r = Reader(w.getvalue())
    assert r.header() == (3, 4, 'f')
    r.align(4)
    assert struct.unpack('<7f', bytes(r.data[r.pos:r.pos + 28])) == (1.5,) * 7


def test_no_rclpy_import():
    """ros_wire (and ros_wire.testing until called) imports no ROS module."""
    code = ('import sys, ros_wire, ros_wire.cdr, ros_wire.testing; '
            'assert not [m for m in sys.modules if m.startswith("rclpy")], sys.modules')
    subprocess.run([sys.executable, '-c', code], check=True, timeout=60)
