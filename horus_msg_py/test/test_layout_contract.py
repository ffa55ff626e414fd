# Copyright 2025 The horus_msg_py authors
# SPDX-License-Identifier: Apache-2.0
"""
Pins every size and offset to the numbers of INTERFACES.md section 5 (seed 003).

The numbers here are typed from the spec on purpose: they must not be derived
from ``horus_msg_py.layouts``, which they check.
"""

from horus_msg_py import layouts
from horus_msg_py.layouts import DTYPES, offset_of, PADDING, size_of
import numpy as np
import pytest

SPEC = {
    'Pose2D': (32, {'x': 0, 'y': 8, 'theta': 16, 'timestamp_ns': 24}),
    'Twist': (56, {'linear': 0, 'angular': 24, 'timestamp_ns': 48}),
    'LaserScan': (1480, {'ranges': 0, 'angle_min': 1440, 'angle_max': 1444,
                         'range_min': 1448, 'range_max': 1452, 'angle_increment': 1456,
                         'time_increment': 1460, 'scan_time': 1464, 'timestamp_ns': 1472}),
    'Imu': (304, {'orientation': 0, 'orientation_covariance': 32, 'angular_velocity': 104,
                  'angular_velocity_covariance': 128, 'linear_acceleration': 200,
                  'linear_acceleration_covariance': 224, 'timestamp_ns': 296}),
    'Odometry': (736, {'pose': 0, 'twist': 32, 'pose_covariance': 88,
                       'twist_covariance': 376, 'frame_id': 664, 'child_frame_id': 696,
                       'timestamp_ns': 728, 'pose.theta': 16, 'twist.angular': 56,
                       'twist.timestamp_ns': 80}),
    'JointState': (912, {'names': 0, 'joint_count': 512, 'positions': 520,
                         'velocities': 648, 'efforts': 776, 'timestamp_ns': 904}),
    'RangeSensor': (32, {'sensor_type': 0, 'field_of_view': 4, 'min_range': 8,
                         'max_range': 12, 'range': 16, 'timestamp_ns': 24}),
    'BatteryState': (104, {'voltage': 0, 'current': 4, 'charge': 8, 'capacity': 12,
                           'percentage': 16, 'power_supply_status': 20, 'temperature': 24,
                           'cell_voltages': 28, 'cell_count': 92, 'timestamp_ns': 96}),
    'NavSatFix': (128, {'latitude': 0, 'longitude': 8, 'altitude': 16,
                        'position_covariance': 24, 'position_covariance_type': 96,
                        'status': 97, 'satellites_visible': 98, 'hdop': 100, 'vdop': 104,
                        'speed': 108, 'heading': 112, 'timestamp_ns': 120}),
    'MagneticField': (136, {'magnetic_field': 0, 'magnetic_field_covariance': 24,
                            'frame_id': 96, 'timestamp_ns': 128}),
    'Temperature': (56, {'temperature': 0, 'variance': 8, 'frame_id': 16, 'timestamp_ns': 48}),
    'FluidPressure': (56, {'fluid_pressure': 0, 'variance': 8, 'frame_id': 16,
                           'timestamp_ns': 48}),
    'Illuminance': (56, {'illuminance': 0, 'variance': 8, 'frame_id': 16, 'timestamp_ns': 48}),
}

SPEC_PADDING = {
    'LaserScan': ((1468, 1472),), 'JointState': ((513, 520),),
    'RangeSensor': ((1, 4), (20, 24)), 'BatteryState': ((21, 24), (93, 96)),
    'NavSatFix': ((116, 120),),
}

# (type, field) -> numpy dtype string and element count, from the spec's field types.
SPEC_TYPES = {
    ('LaserScan', 'ranges'): ('<f4', 360), ('LaserScan', 'scan_time'): ('<f4', 1),
    ('Imu', 'orientation'): ('<f8', 4), ('Odometry', 'pose_covariance'): ('<f8', 36),
    ('Odometry', 'frame_id'): ('|S32', 1), ('JointState', 'names'): ('|S32', 16),
    ('JointState', 'joint_count'): ('|u1', 1), ('BatteryState', 'cell_voltages'): ('<f4', 16),
    ('BatteryState', 'cell_count'): ('|u1', 1), ('NavSatFix', 'satellites_visible'): ('<u2', 1),
    ('NavSatFix', 'status'): ('|u1', 1), ('RangeSensor', 'sensor_type'): ('|u1', 1),
    ('Temperature', 'timestamp_ns'): ('<u8', 1),
}


def test_all_thirteen_layouts_and_eleven_sensor_types():
    assert set(SPEC) == set(layouts.LAYOUTS)
    assert len(layouts.SENSOR_TYPES) == 11
    assert set(layouts.SENSOR_TYPES) == set(SPEC) - {'Pose2D', 'Twist'}


@pytest.mark.parametrize('type_name', sorted(SPEC))
def test_size_and_offsets_match_spec(type_name):
    size, offsets = SPEC[type_name]
    assert size_of(type_name) == size
    assert DTYPES[type_name].itemsize == size
    for field, offset in offsets.items():
        assert offset_of(type_name, field) == offset, field
    top_level = [f for f in offsets if '.' not in f]
    assert list(DTYPES[type_name].names) == top_level  # wire order, nothing extra
    for field in top_level:
        assert DTYPES[type_name].fields[field][1] == offsets[field]


@pytest.mark.parametrize('type_name', sorted(SPEC))
def test_padding_is_exactly_the_gaps(type_name):
    assert PADDING[type_name] == SPEC_PADDING.get(type_name, ())


@pytest.mark.parametrize('key', sorted(SPEC_TYPES))
def test_field_types(key):
    type_name, field = key
    fmt, count = SPEC_TYPES[key]
    dt = DTYPES[type_name].fields[field][0]
    base = dt.base if dt.subdtype else dt
    assert base.str == fmt
    assert int(np.prod(dt.shape, dtype=int)) == count


def test_enums_are_named_constants_with_horus_numbering():
    assert [(e.name, e.value) for e in layouts.NavSatStatus] == [
        ('NO_FIX', 0), ('FIX', 1), ('SBAS_FIX', 2), ('GBAS_FIX', 3)]
    assert [(e.name, e.value) for e in layouts.PowerSupplyStatus] == [
        ('UNKNOWN', 0), ('CHARGING', 1), ('DISCHARGING', 2), ('FULL', 3)]
    assert [(e.name, e.value) for e in layouts.RangeSensorType] == [
        ('ULTRASONIC', 0), ('INFRARED', 1)]
    assert layouts.COVARIANCE_NO_DATA == -1.0
    assert layouts.MAX_NAME_BYTES == 31
