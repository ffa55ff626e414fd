# Copyright 2025 The horus_msg_py authors
# SPDX-License-Identifier: Apache-2.0
"""
One sample per type, in horus-robotics 0.4.1 attribute terms, and its HORUS encoding.

Values are dyadic fractions so float32 fields compare exactly. ``PEER_DEFAULTS``
are what the 0.4.1 wheel writes for fields its Python classes do not expose
(read off its shared memory; test_peer_horus pins them).
"""

import math
from types import ModuleType
from typing import Any, Dict, Optional

#: A sample: horus-robotics attribute name -> value.
Sample = Dict[str, Any]

SAMPLES: Dict[str, Sample] = {
    'LaserScan': {
        'angle_min': -3.125, 'angle_max': 3.125, 'angle_increment': 0.015625, 'range_min': 0.125,
        'range_max': 12.5, 'ranges': [i / 8 for i in range(360)],
        'timestamp_ns': 1_700_000_000_000_000_123,
    },
    'Imu': {
        'accel_x': 0.5, 'accel_y': -0.25, 'accel_z': 9.75, 'gyro_x': 0.125, 'gyro_y': -0.0625,
        'gyro_z': 0.03125, 'qx': 0.5, 'qy': 0.5, 'qz': -0.5, 'qw': 0.5,
        'orientation_covariance': [0.01 * (i + 1) for i in range(9)],
        'angular_velocity_covariance': [0.5] * 9,
        'linear_acceleration_covariance': [-1.0] + [0.0] * 8, 'timestamp_ns': 42,
    },
    'Odometry': {
        'x': 1.5, 'y': -2.25, 'theta': 0.75, 'linear_velocity': 0.5, 'angular_velocity': -0.125,
        'timestamp_ns': 123_456_789_012,
    },
    'JointState': {
        'names': ['shoulder_pan', 'shoulder_lift', 'elbow', 'wrist_1'],
        'positions': [0.0, -1.5, 1.5, 0.25], 'velocities': [0.125, 0.0, -0.5, 1.0],
        'efforts': [1.0, 2.0, 3.0, 4.5], 'timestamp_ns': 7,
    },
    'RangeSensor': {
        'range': 1.25, 'sensor_type': 1, 'field_of_view': 0.5, 'min_range': 0.0625,
        'max_range': 4.5, 'timestamp_ns': 99,
    },
    'BatteryState': {
        'voltage': 24.5, 'percentage': 87.5, 'current': -1.25, 'temperature': 31.5,
        'power_supply_status': 2, 'timestamp_ns': 1234,
    },
    'NavSatFix': {
        'latitude': 48.1234567, 'longitude': 11.7654321, 'altitude': 520.25, 'hdop': 1.5,
        'heading': 90.5, 'satellites_visible': 11, 'speed': 2.5, 'status': 2,
        'timestamp_ns': 5_000_000_001,
    },
    'MagneticField': {'x': 2.5e-5, 'y': -1.25e-5, 'z': 4.0e-5, 'timestamp_ns': 17},
    'Temperature': {'temperature': 36.625, 'variance': 0.25, 'timestamp_ns': 2_000_000_000},
    'FluidPressure': {'pressure': 101325.5, 'variance': 4.0, 'timestamp_ns': 3},
    'Illuminance': {'illuminance': 512.75, 'variance': 1.5, 'timestamp_ns': 4},
}

PEER_DEFAULTS: Dict[str, Sample] = {
    'LaserScan': {'time_increment': 0.0, 'scan_time': 0.10000000149011612},
    'BatteryState': {
        'charge': math.nan, 'capacity': math.nan, 'cell_voltages': [0.0] * 16, 'cell_count': 0,
    },
    'NavSatFix': {
        'position_covariance': [0.0] * 9, 'position_covariance_type': 0, 'vdop': 99.9000015258789,
    },
    'MagneticField': {'magnetic_field_covariance': [-1.0] * 9, 'frame_id': ''},
    'Temperature': {'frame_id': ''},
    'FluidPressure': {'frame_id': ''},
    'Illuminance': {'frame_id': ''},
    'Odometry': {'pose_covariance': [0.0] * 36, 'twist_covariance': [0.0] * 36},
}

#: Odometry frames are set with set_frames() (no attributes to read them back).
ODOM_FRAMES = ('odom', 'base_link')


def horus_fields(type_name: str, attrs: Optional[Sample] = None) -> Sample:
    """Our HORUS field values for a sample given in horus-robotics attribute terms."""
    a = dict(SAMPLES[type_name] if attrs is None else attrs)
    out = dict(PEER_DEFAULTS.get(type_name, {}))
    ts = a.pop('timestamp_ns')
    if type_name == 'Imu':
        out.update(orientation=[a['qx'], a['qy'], a['qz'], a['qw']],
                   angular_velocity=[a['gyro_x'], a['gyro_y'], a['gyro_z']],
                   linear_acceleration=[a['accel_x'], a['accel_y'], a['accel_z']],
                   orientation_covariance=a['orientation_covariance'],
                   angular_velocity_covariance=a['angular_velocity_covariance'],
                   linear_acceleration_covariance=a['linear_acceleration_covariance'])
    elif type_name == 'Odometry':
        out.update(pose={'x': a['x'], 'y': a['y'], 'theta': a['theta']},
                   twist={'linear': [a['linear_velocity'], 0.0, 0.0],
                          'angular': [0.0, 0.0, a['angular_velocity']]},
                   frame_id=ODOM_FRAMES[0], child_frame_id=ODOM_FRAMES[1])
    elif type_name == 'JointState':
        n = len(a['names'])
        pad = [0.0] * (16 - n)
        out.update(names=a['names'], joint_count=n, positions=a['positions'] + pad,
                   velocities=a['velocities'] + pad, efforts=a['efforts'] + pad)
    elif type_name == 'MagneticField':
        out.update(magnetic_field=[a['x'], a['y'], a['z']])
    elif type_name == 'FluidPressure':
        out.update(fluid_pressure=a['pressure'], variance=a['variance'])
    else:
        out.update(a)
    out['timestamp_ns'] = ts
    return out


def build_horus(horus: ModuleType, type_name: str) -> Any:
    """Build a horus-robotics message object carrying the sample."""
    a = dict(SAMPLES[type_name])
    cls = getattr(horus, type_name)
    if type_name == 'JointState':
        return cls(**a)
    msg = cls(0.0, 0.0, 0.0, 0.0, 0.0, 0.0) if type_name == 'Imu' else cls()
    for key, value in a.items():
        setattr(msg, key, value)
    if type_name == 'Odometry':
        msg.set_frames(*ODOM_FRAMES)
    return msg


def read_horus(msg: Any) -> Sample:
    """Readable data attributes of a horus-robotics message, as plain values."""
    out = {}
    for key in dir(msg):
        if key.startswith('_'):
            continue
        value = getattr(msg, key)
        if callable(value):
            continue
        out[key] = list(value) if isinstance(value, (list, tuple)) else value
    return out
