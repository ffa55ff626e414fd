# Copyright 2025 The horus_msg_py authors
# SPDX-License-Identifier: Apache-2.0
"""
HORUS sensor message layouts, shared-memory topics and ROS 2 conversions.

ROS-free parts (layouts, messages, shm) import without rclpy; the ROS 2
conversions live in ``horus_msg_py.ros_conversions``.
"""

from .errors import (ConversionError, HorusMsgError, LayoutError,  # noqa: F401
                     NameTooLongError, ShmError, ShmRewoundError,
                     ShmTruncatedError)
from .layouts import (COVARIANCE_NO_DATA, CovarianceType, DTYPES, LAYOUTS,  # noqa: F401
                      NavSatStatus, PowerSupplyStatus, RangeSensorType, SENSOR_TYPES)
from .messages import (active_joints, BatteryState, FluidPressure, HorusMessage,  # noqa: F401
                       Illuminance, Imu, joint_state, JointState, LaserScan, MagneticField,
                       MESSAGE_TYPES, NavSatFix, Odometry, Pose2D, RangeSensor,
                       Temperature, Twist)

__all__ = [
    'active_joints', 'BatteryState', 'CovarianceType', 'COVARIANCE_NO_DATA',
    'ConversionError', 'DTYPES', 'FluidPressure', 'HorusMessage', 'HorusMsgError',
    'Illuminance', 'Imu', 'joint_state', 'JointState', 'LaserScan', 'LAYOUTS', 'LayoutError',
    'MagneticField', 'MESSAGE_TYPES', 'NameTooLongError', 'NavSatFix', 'NavSatStatus',
    'Odometry', 'Pose2D', 'PowerSupplyStatus', 'RangeSensor', 'RangeSensorType',
    'SENSOR_TYPES', 'ShmError', 'ShmRewoundError', 'ShmTruncatedError', 'Temperature',
    'Twist',
]
