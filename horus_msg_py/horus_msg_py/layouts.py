# Copyright 2025 The horus_msg_py authors
# SPDX-License-Identifier: Apache-2.0
"""
The single table of HORUS sensor message layouts (INTERFACES.md section 5).

HORUS shares ``repr(C)`` little-endian structs (alignment 8) through shared
memory. Every size and field offset below is the wire contract; nothing else in
this package repeats them: message classes, padding masks and the numpy
structured dtypes are all derived from ``LAYOUTS``.
"""

from enum import IntEnum
from typing import Dict, List, Tuple, Union

import numpy as np

#: Longest frame id / joint name HORUS can carry: 32 bytes with a NUL terminator.
NAME_FIELD_BYTES = 32
MAX_NAME_BYTES = NAME_FIELD_BYTES - 1

LASER_SCAN_RANGES = 360
MAX_JOINTS = 16
MAX_CELLS = 16

# Field kinds: how a field is exposed on a message object.
SCALAR = 'scalar'      # one number
ARRAY = 'array'        # fixed numpy array view
NAME = 'name'          # NUL-terminated UTF-8 string in u8[32]
NAME_ARRAY = 'names'   # u8[N][32] of NUL-terminated strings
NESTED = 'nested'      # another layout from this table

_F32 = '<f4'
_F64 = '<f8'
_U8 = 'u1'
_U16 = '<u2'
_U64 = '<u8'

#: One field: (name, kind, format, shape, offset). The format is a numpy format string,
#: or for NESTED the name of the embedded layout.
Field = Tuple[str, str, str, Tuple[int, ...], int]
#: One layout: (size in bytes, fields in wire order).
Layout = Tuple[int, List[Field]]


def _s(name: str, fmt: str, offset: int) -> Field:
    return (name, SCALAR, fmt, (), offset)


def _a(name: str, fmt: str, shape: Union[int, Tuple[int, ...]], offset: int) -> Field:
    return (name, ARRAY, fmt, shape if isinstance(shape, tuple) else (shape,), offset)


def _name(name: str, offset: int) -> Field:
    return (name, NAME, 'S%d' % NAME_FIELD_BYTES, (), offset)


def _names(name: str, count: int, offset: int) -> Field:
    return (name, NAME_ARRAY, 'S%d' % NAME_FIELD_BYTES, (count,), offset)


def _nested(name: str, layout: str, offset: int) -> Field:
    return (name, NESTED, layout, (), offset)


# name -> (size in bytes, fields as (name, kind, format, shape, offset)), wire order.
# Nested layouts must come before the layouts that embed them.
LAYOUTS: Dict[str, Layout] = {
    'Pose2D': (32, [
        _s('x', _F64, 0), _s('y', _F64, 8), _s('theta', _F64, 16),
        _s('timestamp_ns', _U64, 24)]),
    'Twist': (56, [
        _a('linear', _F64, 3, 0), _a('angular', _F64, 3, 24),
        _s('timestamp_ns', _U64, 48)]),
    'LaserScan': (1480, [
        _a('ranges', _F32, LASER_SCAN_RANGES, 0),
        _s('angle_min', _F32, 1440), _s('angle_max', _F32, 1444),
        _s('range_min', _F32, 1448), _s('range_max', _F32, 1452),
        _s('angle_increment', _F32, 1456), _s('time_increment', _F32, 1460),
        _s('scan_time', _F32, 1464),
        _s('timestamp_ns', _U64, 1472)]),
    'Imu': (304, [
        _a('orientation', _F64, 4, 0),
        _a('orientation_covariance', _F64, 9, 32),
        _a('angular_velocity', _F64, 3, 104),
        _a('angular_velocity_covariance', _F64, 9, 128),
        _a('linear_acceleration', _F64, 3, 200),
        _a('linear_acceleration_covariance', _F64, 9, 224),
        _s('timestamp_ns', _U64, 296)]),
    'Odometry': (736, [
        _nested('pose', 'Pose2D', 0), _nested('twist', 'Twist', 32),
        _a('pose_covariance', _F64, 36, 88), _a('twist_covariance', _F64, 36, 376),
        _name('frame_id', 664), _name('child_frame_id', 696),
        _s('timestamp_ns', _U64, 728)]),
    'JointState': (912, [
        _names('names', MAX_JOINTS, 0), _s('joint_count', _U8, 512),
        _a('positions', _F64, MAX_JOINTS, 520), _a('velocities', _F64, MAX_JOINTS, 648),
        _a('efforts', _F64, MAX_JOINTS, 776),
        _s('timestamp_ns', _U64, 904)]),
    'RangeSensor': (32, [
        _s('sensor_type', _U8, 0), _s('field_of_view', _F32, 4),
        _s('min_range', _F32, 8), _s('max_range', _F32, 12), _s('range', _F32, 16),
        _s('timestamp_ns', _U64, 24)]),
    'BatteryState': (104, [
        _s('voltage', _F32, 0), _s('current', _F32, 4), _s('charge', _F32, 8),
        _s('capacity', _F32, 12), _s('percentage', _F32, 16),
        _s('power_supply_status', _U8, 20), _s('temperature', _F32, 24),
        _a('cell_voltages', _F32, MAX_CELLS, 28), _s('cell_count', _U8, 92),
        _s('timestamp_ns', _U64, 96)]),
    'NavSatFix': (128, [
        _s('latitude', _F64, 0), _s('longitude', _F64, 8), _s('altitude', _F64, 16),
        _a('position_covariance', _F64, 9, 24),
        _s('position_covariance_type', _U8, 96), _s('status', _U8, 97),
        _s('satellites_visible', _U16, 98), _s('hdop', _F32, 100), _s('vdop', _F32, 104),
        _s('speed', _F32, 108), _s('heading', _F32, 112),
        _s('timestamp_ns', _U64, 120)]),
    'MagneticField': (136, [
        _a('magnetic_field', _F64, 3, 0), _a('magnetic_field_covariance', _F64, 9, 24),
        _name('frame_id', 96), _s('timestamp_ns', _U64, 128)]),
    'Temperature': (56, [
        _s('temperature', _F64, 0), _s('variance', _F64, 8), _name('frame_id', 16),
        _s('timestamp_ns', _U64, 48)]),
    'FluidPressure': (56, [
        _s('fluid_pressure', _F64, 0), _s('variance', _F64, 8), _name('frame_id', 16),
        _s('timestamp_ns', _U64, 48)]),
    'Illuminance': (56, [
        _s('illuminance', _F64, 0), _s('variance', _F64, 8), _name('frame_id', 16),
        _s('timestamp_ns', _U64, 48)]),
}

#: The 11 sensor types (the nested Pose2D/Twist are layouts too but not topics).
SENSOR_TYPES = ('LaserScan', 'Imu', 'Odometry', 'JointState', 'RangeSensor',
                'BatteryState', 'NavSatFix', 'MagneticField', 'Temperature',
                'FluidPressure', 'Illuminance')


def _build_dtypes() -> Dict[str, np.dtype[np.void]]:
    dtypes: Dict[str, np.dtype[np.void]] = {}
    for type_name, (size, fields) in LAYOUTS.items():
        names: List[str] = []
        formats: List[Union[np.dtype[np.generic], Tuple[np.dtype[np.generic], Tuple[int, ...]]]]
        formats, offsets = [], []
        for name, kind, fmt, shape, offset in fields:
            names.append(name)
            base: np.dtype[np.generic] = dtypes[fmt] if kind == NESTED else np.dtype(fmt)
            formats.append((base, shape) if shape else base)
            offsets.append(offset)
        # itemsize pins trailing padding; align=False: offsets are explicit.
        dtypes[type_name] = np.dtype({'names': names, 'formats': formats,
                                      'offsets': offsets, 'itemsize': size})
    return dtypes


#: numpy structured dtype per layout (explicit offsets, explicit itemsize).
DTYPES = _build_dtypes()


def _padding_ranges(type_name: str) -> Tuple[Tuple[int, int], ...]:
    """Byte ranges of a layout that no field covers (recursing into nested layouts)."""
    size = LAYOUTS[type_name][0]
    covered = np.zeros(size, dtype=bool)

    def cover_into(name: str, mask: 'np.ndarray[Tuple[int], np.dtype[np.bool_]]') -> None:
        for _fname, kind, fmt, shape, offset in LAYOUTS[name][1]:
            if kind == NESTED:
                inner = np.zeros(LAYOUTS[fmt][0], dtype=bool)
                cover_into(fmt, inner)
                mask[offset:offset + inner.size] |= inner
            else:
                nbytes = np.dtype(fmt).itemsize * int(np.prod(shape, dtype=int))
                mask[offset:offset + nbytes] = True

    cover_into(type_name, covered)
    ranges: List[Tuple[int, int]] = []
    start: Union[int, None] = None
    for i, c in enumerate(covered):
        if not c and start is None:
            start = i
        elif c and start is not None:
            ranges.append((start, i))
            start = None
    if start is not None:
        ranges.append((start, size))
    return tuple(ranges)


#: (start, end) byte ranges of padding per layout; written as zeros by ``to_bytes``.
PADDING = {name: _padding_ranges(name) for name in LAYOUTS}


def size_of(type_name: str) -> int:
    """Size in bytes of a HORUS layout."""
    return LAYOUTS[type_name][0]


def offset_of(type_name: str, field: str) -> int:
    """Offset of ``field`` (``'pose.theta'`` reaches into nested layouts)."""
    head, _, rest = field.partition('.')
    for name, kind, fmt, _shape, offset in LAYOUTS[type_name][1]:
        if name == head:
            return offset + (offset_of(fmt, rest) if rest else 0)
    raise KeyError('%s has no field %r' % (type_name, field))


# --- Enumerations: HORUS numbering, which differs from ROS 2 (see ros_conversions) ---

class NavSatStatus(IntEnum):
    """HORUS NavSatFix.status (u8). ROS uses -1..2 for the same meanings."""

    NO_FIX = 0
    FIX = 1
    SBAS_FIX = 2
    GBAS_FIX = 3


class PowerSupplyStatus(IntEnum):
    """HORUS BatteryState.power_supply_status (u8). ROS has NOT_CHARGING=3, FULL=4."""

    UNKNOWN = 0
    CHARGING = 1
    DISCHARGING = 2
    FULL = 3


class RangeSensorType(IntEnum):
    """HORUS RangeSensor.sensor_type (u8)."""

    ULTRASONIC = 0
    INFRARED = 1


class CovarianceType(IntEnum):
    """NavSatFix.position_covariance_type; HORUS mirrors the ROS numbering."""

    UNKNOWN = 0
    APPROXIMATED = 1
    DIAGONAL_KNOWN = 2
    KNOWN = 3


#: Covariance first element -1 means "no data" (same convention as ROS Imu).
COVARIANCE_NO_DATA = -1.0
