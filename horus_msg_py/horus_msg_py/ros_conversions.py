# Copyright 2025 The horus_msg_py authors
# SPDX-License-Identifier: Apache-2.0
"""
HORUS <-> ROS 2 conversions (sensor_msgs, nav_msgs/Odometry).

Rules where the two sides differ (each is tested in test/test_ros_conversions.py):

* stamps: ``timestamp_ns`` <-> ``header.stamp`` exactly (sec = ns // 1e9); a
  negative ROS stamp or one past 2**64 ns is an error;
* frame ids: HORUS types without one (LaserScan, Imu, JointState, RangeSensor,
  BatteryState, NavSatFix) take ``frame_id`` as an argument; ids longer than 31
  UTF-8 bytes are errors;
* enumerations are mapped by table, never cast (NavSatFix status,
  BatteryState power_supply_status, RangeSensor type);
* LaserScan must have exactly 360 ranges; ROS intensities are refused unless
  ``drop_intensities=True``; JointState at most 16 joints, empty ROS
  velocity/effort lists mean zeros, other length mismatches are errors;
* BatteryState.percentage is 0-100 in HORUS and 0-1 in ROS; more than 16 cells
  is an error; ROS fields HORUS lacks (design_capacity, health, technology,
  present, cell_temperature, location, serial_number) are not carried;
* NavSatFix: satellites_visible, hdop, vdop, speed, heading exist only in HORUS
  (dropped towards ROS; HORUS defaults hdop=vdop=99.9 coming from ROS);
  ROS status.service is a parameter (default SERVICE_GPS);
* Odometry: Pose2D(x, y, theta) <-> position (x, y, 0) + yaw quaternion; a ROS
  pose with z != 0 or roll/pitch beyond ``planar_tolerance`` is an error.
  Twist and the 6x6 covariances map 1:1; both nested stamps take the header stamp.
* Range.variance (ROS only) is 0 ("unknown") towards ROS and not carried back.
"""

import array
import math
from typing import Any, Callable, Dict, Mapping, Optional, Tuple, Type, TypeVar

from builtin_interfaces.msg import Time
from geometry_msgs.msg import Quaternion
from nav_msgs.msg import Odometry as RosOdometry
import numpy as np
import numpy.typing as npt
from sensor_msgs import msg as sm

from . import messages as hm
from .errors import ConversionError, HorusMsgError
from .layouts import (LASER_SCAN_RANGES, MAX_CELLS, MAX_JOINTS, NavSatStatus,
                      PowerSupplyStatus, RangeSensorType)
from .messages import encode_name

_M = TypeVar('_M', bound=hm.HorusMessage)
#: A rosidl-generated message (rclpy ships no type stubs for them).
RosMessage = Any

_NS = 1_000_000_000
_U64_MAX = 2**64 - 1

# --- enumerations -------------------------------------------------------------

NAVSAT_STATUS_TO_ROS = {
    NavSatStatus.NO_FIX: sm.NavSatStatus.STATUS_NO_FIX,
    NavSatStatus.FIX: sm.NavSatStatus.STATUS_FIX,
    NavSatStatus.SBAS_FIX: sm.NavSatStatus.STATUS_SBAS_FIX,
    NavSatStatus.GBAS_FIX: sm.NavSatStatus.STATUS_GBAS_FIX,
}
NAVSAT_STATUS_FROM_ROS = {v: k for k, v in NAVSAT_STATUS_TO_ROS.items()}

POWER_STATUS_TO_ROS = {
    PowerSupplyStatus.UNKNOWN: sm.BatteryState.POWER_SUPPLY_STATUS_UNKNOWN,
    PowerSupplyStatus.CHARGING: sm.BatteryState.POWER_SUPPLY_STATUS_CHARGING,
    PowerSupplyStatus.DISCHARGING: sm.BatteryState.POWER_SUPPLY_STATUS_DISCHARGING,
    PowerSupplyStatus.FULL: sm.BatteryState.POWER_SUPPLY_STATUS_FULL,
}
POWER_STATUS_FROM_ROS = {v: k for k, v in POWER_STATUS_TO_ROS.items()}

RANGE_TYPE_TO_ROS = {
    RangeSensorType.ULTRASONIC: sm.Range.ULTRASOUND,
    RangeSensorType.INFRARED: sm.Range.INFRARED,
}
RANGE_TYPE_FROM_ROS = {v: k for k, v in RANGE_TYPE_TO_ROS.items()}


def _map_enum(table: Mapping[Any, int], value: object, what: str) -> int:
    try:
        return int(table[value])
    except KeyError:
        raise ConversionError('%s value %r has no counterpart (known: %s)'
                              % (what, value, sorted(int(k) for k in table))) from None


# --- stamps and frame ids -----------------------------------------------------

def stamp_parts(timestamp_ns: int) -> Tuple[int, int]:
    """(sec, nanosec) of a HORUS u64 timestamp; ConversionError past int32 seconds."""
    sec, nanosec = divmod(int(timestamp_ns), _NS)
    if sec > 2**31 - 1:
        raise ConversionError('timestamp_ns=%d does not fit builtin_interfaces/Time'
                              % timestamp_ns)
    return sec, nanosec


def stamp_to_ros(timestamp_ns: int) -> Time:
    sec, nanosec = stamp_parts(timestamp_ns)
    return Time(sec=sec, nanosec=nanosec)


def stamp_from_ros(stamp: Time) -> int:
    ns = int(stamp.sec) * _NS + int(stamp.nanosec)
    if ns < 0 or ns > _U64_MAX:
        raise ConversionError('stamp %d.%09d cannot be a HORUS u64 timestamp_ns'
                              % (stamp.sec, stamp.nanosec))
    return ns


def _header(msg: RosMessage, timestamp_ns: int, frame_id: str) -> RosMessage:
    msg.header.stamp = stamp_to_ros(timestamp_ns)
    msg.header.frame_id = frame_id
    return msg


def _checked_frame(frame_id: str, what: str = 'header.frame_id') -> str:
    encode_name(frame_id, what)   # raises NameTooLongError beyond 31 bytes
    return frame_id


def _f32_array(values: npt.ArrayLike) -> 'array.array[float]':
    return array.array('f', np.ascontiguousarray(values, dtype=np.float32).tobytes())


def _f64_array(values: npt.ArrayLike) -> 'array.array[float]':
    return array.array('d', np.ascontiguousarray(values, dtype=np.float64).tobytes())


def _new(cls: Type[_M], **fields: Any) -> _M:
    try:
        return cls(**fields)
    except HorusMsgError as exc:
        raise ConversionError(str(exc)) from exc


# --- LaserScan ----------------------------------------------------------------

def laser_scan_to_ros(m: hm.LaserScan, frame_id: str = '') -> sm.LaserScan:
    out = sm.LaserScan()
    _header(out, m.timestamp_ns, frame_id)
    out.angle_min = m.angle_min
    out.angle_max = m.angle_max
    out.angle_increment = m.angle_increment
    out.time_increment = m.time_increment
    out.scan_time = m.scan_time
    out.range_min = m.range_min
    out.range_max = m.range_max
    # array('f') straight from the little-endian bytes: no per-element Python work.
    out.ranges = array.array('f', m.ranges.tobytes())
    return out


def laser_scan_from_ros(msg: sm.LaserScan, drop_intensities: bool = False) -> hm.LaserScan:
    if len(msg.ranges) != LASER_SCAN_RANGES:
        raise ConversionError('HORUS LaserScan carries exactly %d ranges; got %d'
                              % (LASER_SCAN_RANGES, len(msg.ranges)))
    if len(msg.intensities) and not drop_intensities:
        raise ConversionError('HORUS LaserScan has no intensities; %d given '
                              '(pass drop_intensities=True to discard them)'
                              % len(msg.intensities))
    out = _new(hm.LaserScan, angle_min=msg.angle_min, angle_max=msg.angle_max,
               angle_increment=msg.angle_increment, time_increment=msg.time_increment,
               scan_time=msg.scan_time, range_min=msg.range_min, range_max=msg.range_max,
               timestamp_ns=stamp_from_ros(msg.header.stamp))
    out.ranges[:] = np.frombuffer(msg.ranges, dtype=np.float32) \
        if isinstance(msg.ranges, array.array) else np.asarray(msg.ranges, np.float32)
    return out


# --- Imu ----------------------------------------------------------------------

def imu_to_ros(m: hm.Imu, frame_id: str = '') -> sm.Imu:
    out = sm.Imu()
    _header(out, m.timestamp_ns, frame_id)
    q = m.orientation
    out.orientation.x, out.orientation.y, out.orientation.z, out.orientation.w = \
        (float(v) for v in q)
    out.orientation_covariance = _f64_array(m.orientation_covariance)
    av, la = m.angular_velocity, m.linear_acceleration
    out.angular_velocity.x, out.angular_velocity.y, out.angular_velocity.z = \
        (float(v) for v in av)
    out.angular_velocity_covariance = _f64_array(m.angular_velocity_covariance)
    out.linear_acceleration.x, out.linear_acceleration.y, out.linear_acceleration.z = \
        (float(v) for v in la)
    out.linear_acceleration_covariance = _f64_array(m.linear_acceleration_covariance)
    return out


def imu_from_ros(msg: sm.Imu) -> hm.Imu:
    o, w, a = msg.orientation, msg.angular_velocity, msg.linear_acceleration
    return _new(hm.Imu, orientation=[o.x, o.y, o.z, o.w],
                orientation_covariance=list(msg.orientation_covariance),
                angular_velocity=[w.x, w.y, w.z],
                angular_velocity_covariance=list(msg.angular_velocity_covariance),
                linear_acceleration=[a.x, a.y, a.z],
                linear_acceleration_covariance=list(msg.linear_acceleration_covariance),
                timestamp_ns=stamp_from_ros(msg.header.stamp))


# --- Odometry -----------------------------------------------------------------

def yaw_to_quaternion(theta: float) -> Quaternion:
    return Quaternion(x=0.0, y=0.0, z=math.sin(theta / 2.0), w=math.cos(theta / 2.0))


def quaternion_to_yaw(q: Quaternion, planar_tolerance: float = 1e-6) -> float:
    norm = math.sqrt(q.x * q.x + q.y * q.y + q.z * q.z + q.w * q.w)
    if norm == 0.0 or not math.isfinite(norm):
        raise ConversionError('orientation quaternion has norm %r' % norm)
    if abs(q.x) / norm > planar_tolerance or abs(q.y) / norm > planar_tolerance:
        raise ConversionError('orientation (%g, %g, %g, %g) has roll/pitch; HORUS '
                              'Pose2D holds only yaw' % (q.x, q.y, q.z, q.w))
    return 2.0 * math.atan2(q.z, q.w)


def odometry_to_ros(m: hm.Odometry) -> RosOdometry:
    out = RosOdometry()
    _header(out, m.timestamp_ns, m.frame_id)
    out.child_frame_id = m.child_frame_id
    pose = m.pose
    out.pose.pose.position.x = pose.x
    out.pose.pose.position.y = pose.y
    out.pose.pose.position.z = 0.0
    out.pose.pose.orientation = yaw_to_quaternion(pose.theta)
    out.pose.covariance = _f64_array(m.pose_covariance)
    tw = m.twist
    lin, ang = tw.linear, tw.angular
    out.twist.twist.linear.x, out.twist.twist.linear.y, out.twist.twist.linear.z = \
        (float(v) for v in lin)
    out.twist.twist.angular.x, out.twist.twist.angular.y, out.twist.twist.angular.z = \
        (float(v) for v in ang)
    out.twist.covariance = _f64_array(m.twist_covariance)
    return out


def odometry_from_ros(msg: RosOdometry, planar_tolerance: float = 1e-6) -> hm.Odometry:
    p = msg.pose.pose.position
    if p.z != 0.0:
        raise ConversionError('position.z=%r; HORUS Pose2D is planar (z must be 0)' % p.z)
    theta = quaternion_to_yaw(msg.pose.pose.orientation, planar_tolerance)
    ts = stamp_from_ros(msg.header.stamp)
    lin, ang = msg.twist.twist.linear, msg.twist.twist.angular
    return _new(hm.Odometry,
                pose={'x': p.x, 'y': p.y, 'theta': theta, 'timestamp_ns': ts},
                twist={'linear': [lin.x, lin.y, lin.z], 'angular': [ang.x, ang.y, ang.z],
                       'timestamp_ns': ts},
                pose_covariance=list(msg.pose.covariance),
                twist_covariance=list(msg.twist.covariance),
                frame_id=msg.header.frame_id, child_frame_id=msg.child_frame_id,
                timestamp_ns=ts)


# --- JointState ---------------------------------------------------------------

def joint_state_to_ros(m: hm.JointState, frame_id: str = '') -> sm.JointState:
    names, pos, vel, eff = hm.active_joints(m)
    out = sm.JointState()
    _header(out, m.timestamp_ns, frame_id)
    out.name = names
    out.position = _f64_array(pos)
    out.velocity = _f64_array(vel)
    out.effort = _f64_array(eff)
    return out


def joint_state_from_ros(msg: sm.JointState) -> hm.JointState:
    n = len(msg.name)
    if n > MAX_JOINTS:
        raise ConversionError('HORUS JointState holds at most %d joints; got %d'
                              % (MAX_JOINTS, n))
    lists: Dict[str, Optional[list[float]]] = {}
    for field, ros in (('positions', msg.position), ('velocities', msg.velocity),
                       ('efforts', msg.effort)):
        if len(ros) == 0:
            lists[field] = None               # ROS "not reported" -> zeros
        elif len(ros) != n:
            raise ConversionError('JointState has %d names but %d %s'
                                  % (n, len(ros), field))
        else:
            lists[field] = list(ros)
    try:
        return hm.joint_state(list(msg.name), timestamp_ns=stamp_from_ros(msg.header.stamp),
                              **lists)
    except HorusMsgError as exc:
        raise ConversionError(str(exc)) from exc


# --- RangeSensor --------------------------------------------------------------

def range_to_ros(m: hm.RangeSensor, frame_id: str = '') -> sm.Range:
    out = sm.Range()
    _header(out, m.timestamp_ns, frame_id)
    out.radiation_type = _map_enum(RANGE_TYPE_TO_ROS, m.sensor_type, 'RangeSensor.sensor_type')
    out.field_of_view = m.field_of_view
    out.min_range = m.min_range
    out.max_range = m.max_range
    out.range = m.range
    return out


def range_from_ros(msg: sm.Range) -> hm.RangeSensor:
    return _new(hm.RangeSensor,
                sensor_type=_map_enum(RANGE_TYPE_FROM_ROS, msg.radiation_type,
                                      'Range.radiation_type'),
                field_of_view=msg.field_of_view, min_range=msg.min_range,
                max_range=msg.max_range, range=msg.range,
                timestamp_ns=stamp_from_ros(msg.header.stamp))


# --- BatteryState -------------------------------------------------------------

def battery_state_to_ros(m: hm.BatteryState, frame_id: str = '') -> sm.BatteryState:
    if m.cell_count > MAX_CELLS:
        raise ConversionError('BatteryState.cell_count=%d exceeds %d' % (m.cell_count, MAX_CELLS))
    out = sm.BatteryState()
    _header(out, m.timestamp_ns, frame_id)
    out.voltage = m.voltage
    out.temperature = m.temperature
    out.current = m.current
    out.charge = m.charge
    out.capacity = m.capacity
    out.design_capacity = math.nan
    out.percentage = float(np.float32(np.float64(m.percentage) / 100.0))
    out.power_supply_status = _map_enum(POWER_STATUS_TO_ROS, m.power_supply_status,
                                        'BatteryState.power_supply_status')
    out.present = True
    out.cell_voltage = _f32_array(m.cell_voltages[:m.cell_count])
    return out


def battery_state_from_ros(msg: sm.BatteryState,
                           not_charging_as: Optional[int] = None) -> hm.BatteryState:
    """``not_charging_as``: HORUS status for ROS NOT_CHARGING (None: an error)."""
    if len(msg.cell_voltage) > MAX_CELLS:
        raise ConversionError('HORUS BatteryState holds at most %d cells; got %d'
                              % (MAX_CELLS, len(msg.cell_voltage)))
    status = msg.power_supply_status
    if status == sm.BatteryState.POWER_SUPPLY_STATUS_NOT_CHARGING and \
            not_charging_as is not None:
        horus_status = int(PowerSupplyStatus(not_charging_as))
    else:
        horus_status = _map_enum(POWER_STATUS_FROM_ROS, status,
                                 'BatteryState.power_supply_status')
    cells = np.zeros(MAX_CELLS, dtype=np.float32)
    cells[:len(msg.cell_voltage)] = np.asarray(msg.cell_voltage, dtype=np.float32)
    return _new(hm.BatteryState, voltage=msg.voltage, current=msg.current,
                charge=msg.charge, capacity=msg.capacity,
                percentage=float(np.float32(np.float64(msg.percentage) * 100.0)),
                power_supply_status=horus_status, temperature=msg.temperature,
                cell_voltages=cells, cell_count=len(msg.cell_voltage),
                timestamp_ns=stamp_from_ros(msg.header.stamp))


# --- NavSatFix ----------------------------------------------------------------

HORUS_DOP_UNKNOWN = 99.9


def nav_sat_fix_to_ros(m: hm.NavSatFix, frame_id: str = '',
                       service: int = sm.NavSatStatus.SERVICE_GPS) -> sm.NavSatFix:
    out = sm.NavSatFix()
    _header(out, m.timestamp_ns, frame_id)
    out.status.status = _map_enum(NAVSAT_STATUS_TO_ROS, m.status, 'NavSatFix.status')
    out.status.service = service
    out.latitude = m.latitude
    out.longitude = m.longitude
    out.altitude = m.altitude
    out.position_covariance = _f64_array(m.position_covariance)
    if m.position_covariance_type > sm.NavSatFix.COVARIANCE_TYPE_KNOWN:
        raise ConversionError('NavSatFix.position_covariance_type=%d is unknown'
                              % m.position_covariance_type)
    out.position_covariance_type = m.position_covariance_type
    return out


def nav_sat_fix_from_ros(msg: sm.NavSatFix) -> hm.NavSatFix:
    if msg.position_covariance_type > sm.NavSatFix.COVARIANCE_TYPE_KNOWN:
        raise ConversionError('NavSatFix.position_covariance_type=%d is unknown'
                              % msg.position_covariance_type)
    return _new(hm.NavSatFix, latitude=msg.latitude, longitude=msg.longitude,
                altitude=msg.altitude, position_covariance=list(msg.position_covariance),
                position_covariance_type=msg.position_covariance_type,
                status=_map_enum(NAVSAT_STATUS_FROM_ROS, msg.status.status,
                                 'NavSatStatus.status'),
                hdop=HORUS_DOP_UNKNOWN, vdop=HORUS_DOP_UNKNOWN,
                timestamp_ns=stamp_from_ros(msg.header.stamp))


# --- MagneticField, Temperature, FluidPressure, Illuminance -------------------

def magnetic_field_to_ros(m: hm.MagneticField) -> sm.MagneticField:
    out = sm.MagneticField()
    _header(out, m.timestamp_ns, m.frame_id)
    f = m.magnetic_field
    out.magnetic_field.x, out.magnetic_field.y, out.magnetic_field.z = (float(v) for v in f)
    out.magnetic_field_covariance = _f64_array(m.magnetic_field_covariance)
    return out


def magnetic_field_from_ros(msg: sm.MagneticField) -> hm.MagneticField:
    f = msg.magnetic_field
    return _new(hm.MagneticField, magnetic_field=[f.x, f.y, f.z],
                magnetic_field_covariance=list(msg.magnetic_field_covariance),
                frame_id=msg.header.frame_id, timestamp_ns=stamp_from_ros(msg.header.stamp))


#: The HORUS readings that are one value, a variance and a frame id.
_Reading = TypeVar('_Reading', hm.Temperature, hm.FluidPressure, hm.Illuminance)


def _scalar_pair(horus_cls: Type[_Reading], ros_cls: Type[RosMessage], field: str
                 ) -> Tuple[Callable[[_Reading], RosMessage], Callable[[RosMessage], _Reading]]:
    def to_ros(m: _Reading) -> RosMessage:
        out = ros_cls()
        _header(out, m.timestamp_ns, m.frame_id)
        setattr(out, field, getattr(m, field))
        out.variance = m.variance
        return out

    def from_ros(msg: RosMessage) -> _Reading:
        return _new(horus_cls, **{field: getattr(msg, field)}, variance=msg.variance,
                    frame_id=msg.header.frame_id,
                    timestamp_ns=stamp_from_ros(msg.header.stamp))
    return to_ros, from_ros


temperature_to_ros, temperature_from_ros = _scalar_pair(
    hm.Temperature, sm.Temperature, 'temperature')
fluid_pressure_to_ros, fluid_pressure_from_ros = _scalar_pair(
    hm.FluidPressure, sm.FluidPressure, 'fluid_pressure')
illuminance_to_ros, illuminance_from_ros = _scalar_pair(hm.Illuminance, sm.Illuminance,
                                                        'illuminance')


class Converter:
    """One HORUS type <-> ROS type pairing, as the bridge uses it."""

    def __init__(self, horus_type: Type[hm.HorusMessage], ros_type: Type[RosMessage],
                 to_ros: Callable[..., RosMessage], from_ros: Callable[..., hm.HorusMessage],
                 has_frame_id: bool) -> None:
        self.horus_type = horus_type
        self.ros_type = ros_type
        self._to_ros = to_ros
        self._from_ros = from_ros
        #: False: the ROS frame_id comes from the caller (a bridge parameter).
        self.has_frame_id = has_frame_id

    def to_ros(self, m: hm.HorusMessage, frame_id: str = '', **options: Any) -> RosMessage:
        if self.has_frame_id:
            return self._to_ros(m, **options)
        return self._to_ros(m, _checked_frame(frame_id) if frame_id else '', **options)

    def from_ros(self, msg: RosMessage, **options: Any) -> hm.HorusMessage:
        return self._from_ros(msg, **options)


CONVERTERS: Dict[str, Converter] = {
    'LaserScan': Converter(hm.LaserScan, sm.LaserScan, laser_scan_to_ros,
                           laser_scan_from_ros, False),
    'Imu': Converter(hm.Imu, sm.Imu, imu_to_ros, imu_from_ros, False),
    'Odometry': Converter(hm.Odometry, RosOdometry, odometry_to_ros, odometry_from_ros, True),
    'JointState': Converter(hm.JointState, sm.JointState, joint_state_to_ros,
                            joint_state_from_ros, False),
    'RangeSensor': Converter(hm.RangeSensor, sm.Range, range_to_ros, range_from_ros, False),
    'BatteryState': Converter(hm.BatteryState, sm.BatteryState, battery_state_to_ros,
                              battery_state_from_ros, False),
    'NavSatFix': Converter(hm.NavSatFix, sm.NavSatFix, nav_sat_fix_to_ros,
                           nav_sat_fix_from_ros, False),
    'MagneticField': Converter(hm.MagneticField, sm.MagneticField, magnetic_field_to_ros,
                               magnetic_field_from_ros, True),
    'Temperature': Converter(hm.Temperature, sm.Temperature, temperature_to_ros,
                             temperature_from_ros, True),
    'FluidPressure': Converter(hm.FluidPressure, sm.FluidPressure, fluid_pressure_to_ros,
                               fluid_pressure_from_ros, True),
    'Illuminance': Converter(hm.Illuminance, sm.Illuminance, illuminance_to_ros,
                             illuminance_from_ros, True),
}
