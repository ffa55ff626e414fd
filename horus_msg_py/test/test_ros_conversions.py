# Copyright 2025 The horus_msg_py authors
# SPDX-License-Identifier: Apache-2.0
import math

from builtin_interfaces.msg import Time
from horus_msg_py import (BatteryState, ConversionError, FluidPressure, Illuminance, Imu,
                          joint_state, LaserScan, MagneticField, NameTooLongError,
                          NavSatFix, Odometry,
                          PowerSupplyStatus, RangeSensor, SENSOR_TYPES, Temperature)
from horus_msg_py import ros_conversions as rc
import numpy as np
import pytest
from sensor_msgs import msg as sm

TS = 1_700_000_123_456_789_012

SAMPLES = {
    'LaserScan': LaserScan(ranges=np.linspace(0.1, 30, 360), angle_min=-3.0, angle_max=3.0,
                           angle_increment=0.0167, time_increment=1e-5, scan_time=0.1,
                           range_min=0.05, range_max=30.0, timestamp_ns=TS),
    'Imu': Imu(orientation=[0.1, 0.2, 0.3, 0.9], orientation_covariance=[-1.0] + [0.0] * 8,
               angular_velocity=[0.01, 0.02, 0.03], angular_velocity_covariance=[0.5] * 9,
               linear_acceleration=[0.0, 0.1, 9.81],
               linear_acceleration_covariance=list(range(9)), timestamp_ns=TS),
    'Odometry': Odometry(pose={'x': 1.0, 'y': 2.0, 'theta': 0.5, 'timestamp_ns': TS},
                         twist={'linear': [0.5, 0.1, 0.0], 'angular': [0.0, 0.0, 0.2],
                                'timestamp_ns': TS},
                         pose_covariance=np.arange(36.0), twist_covariance=np.arange(36.0) / 2,
                         frame_id='odom', child_frame_id='base_link', timestamp_ns=TS),
    'JointState': joint_state(['a', 'b', 'c'], positions=[1.0, 2.0, 3.0],
                              velocities=[0.1, 0.2, 0.3], efforts=[5.0, 6.0, 7.0],
                              timestamp_ns=TS),
    'RangeSensor': RangeSensor(sensor_type=1, field_of_view=0.3, min_range=0.02, max_range=4.0,
                               range=1.5, timestamp_ns=TS),
    'BatteryState': BatteryState(voltage=24.0, current=-2.0, charge=10.0, capacity=20.0,
                                 percentage=50.0, power_supply_status=PowerSupplyStatus.FULL,
                                 temperature=30.0, cell_voltages=[4.0] * 6 + [0.0] * 10,
                                 cell_count=6, timestamp_ns=TS),
    'NavSatFix': NavSatFix(latitude=48.1, longitude=11.5, altitude=500.0,
                           position_covariance=[1.0, 0, 0, 0, 1.0, 0, 0, 0, 4.0],
                           position_covariance_type=2, status=3, satellites_visible=9,
                           hdop=99.9, vdop=99.9, timestamp_ns=TS),
    'MagneticField': MagneticField(magnetic_field=[1e-5, 2e-5, 3e-5],
                                   magnetic_field_covariance=[-1.0] * 9, frame_id='mag',
                                   timestamp_ns=TS),
    'Temperature': Temperature(temperature=21.5, variance=0.1, frame_id='t', timestamp_ns=TS),
    'FluidPressure': FluidPressure(fluid_pressure=101325.0, variance=2.0, frame_id='baro',
                                   timestamp_ns=TS),
    'Illuminance': Illuminance(illuminance=300.0, variance=1.0, frame_id='lux',
                               timestamp_ns=TS),
}


def test_every_sensor_type_has_a_converter():
    assert sorted(rc.CONVERTERS) == sorted(SENSOR_TYPES)


@pytest.mark.parametrize('type_name', SENSOR_TYPES)
def test_round_trip(type_name):
    conv = rc.CONVERTERS[type_name]
    m = SAMPLES[type_name]
    ros = conv.to_ros(m, frame_id='sensor_frame')
    assert isinstance(ros, conv.ros_type)
    assert ros.header.stamp.sec == TS // 10**9 and ros.header.stamp.nanosec == TS % 10**9
    if not conv.has_frame_id:
        assert ros.header.frame_id == 'sensor_frame'
    back = conv.from_ros(ros)
    if type_name == 'BatteryState':
        # percentage is scaled 0-100 <-> 0-1 (float32 both ways)
        assert ros.percentage == pytest.approx(0.5)
        assert back.percentage == pytest.approx(m.percentage, rel=1e-6)
        back.percentage = m.percentage
    if type_name == 'Odometry':
        assert back.pose.theta == pytest.approx(0.5, abs=1e-15)
        back.pose.theta = m.pose.theta
    if type_name == 'NavSatFix':
        assert back.satellites_visible == 0     # not in ROS: documented loss
        back.satellites_visible = m.satellites_visible
    assert back == m


def test_stamp_exact():
    for ns in (0, 1, 999_999_999, 1_000_000_000, TS, (2**31 - 1) * 10**9 + 999_999_999):
        t = rc.stamp_to_ros(ns)
        assert rc.stamp_from_ros(t) == ns
    with pytest.raises(ConversionError):
        rc.stamp_from_ros(Time(sec=-1, nanosec=0))
    with pytest.raises(ConversionError):
        rc.stamp_to_ros(2**31 * 10**9)


def test_enums_are_mapped_not_cast():
    fix = NavSatFix(status=0)
    assert rc.nav_sat_fix_to_ros(fix).status.status == sm.NavSatStatus.STATUS_NO_FIX == -1
    for horus, ros in ((0, -1), (1, 0), (2, 1), (3, 2)):
        fix.status = horus
        r = rc.nav_sat_fix_to_ros(fix)
        assert r.status.status == ros and r.status.service == sm.NavSatStatus.SERVICE_GPS
        assert rc.nav_sat_fix_from_ros(r).status == horus
    fix.status = 4
    with pytest.raises(ConversionError):
        rc.nav_sat_fix_to_ros(fix)
    bat = BatteryState(power_supply_status=3)
    assert rc.battery_state_to_ros(bat).power_supply_status == \
        sm.BatteryState.POWER_SUPPLY_STATUS_FULL == 4
    ros = sm.BatteryState(power_supply_status=sm.BatteryState.POWER_SUPPLY_STATUS_NOT_CHARGING)
    with pytest.raises(ConversionError, match='power_supply_status'):
        rc.battery_state_from_ros(ros)
    assert rc.battery_state_from_ros(ros, not_charging_as=PowerSupplyStatus.UNKNOWN) \
        .power_supply_status == 0
    assert rc.range_to_ros(RangeSensor(sensor_type=0)).radiation_type == sm.Range.ULTRASOUND
    with pytest.raises(ConversionError):
        rc.range_to_ros(RangeSensor(sensor_type=2))


def test_laser_scan_size_rules():
    ros = rc.laser_scan_to_ros(SAMPLES['LaserScan'])
    assert len(ros.ranges) == 360 and len(ros.intensities) == 0
    short = sm.LaserScan(ranges=[1.0] * 359)
    with pytest.raises(ConversionError, match='360'):
        rc.laser_scan_from_ros(short)
    with pytest.raises(ConversionError, match='360'):
        rc.laser_scan_from_ros(sm.LaserScan(ranges=[1.0] * 720))
    ros.intensities = [1.0] * 360
    with pytest.raises(ConversionError, match='intensities'):
        rc.laser_scan_from_ros(ros)
    assert rc.laser_scan_from_ros(ros, drop_intensities=True).ranges[5] == ros.ranges[5]


def test_joint_state_rules():
    many = sm.JointState(name=['j%d' % i for i in range(17)])
    with pytest.raises(ConversionError, match='16'):
        rc.joint_state_from_ros(many)
    with pytest.raises(ConversionError):
        rc.joint_state_from_ros(sm.JointState(name=['x' * 32]))
    with pytest.raises(ConversionError):
        rc.joint_state_from_ros(sm.JointState(name=['a', 'b'], position=[1.0]))
    m = rc.joint_state_from_ros(sm.JointState(name=['a', 'b'], position=[1.0, 2.0]))
    assert m.joint_count == 2 and list(m.velocities[:2]) == [0.0, 0.0]


def test_frame_id_rules():
    with pytest.raises(ConversionError):
        bad = sm.Temperature()
        bad.header.frame_id = 'f' * 32
        rc.temperature_from_ros(bad)
    with pytest.raises(NameTooLongError, match='31'):
        rc.CONVERTERS['Imu'].to_ros(SAMPLES['Imu'], frame_id='f' * 32)


def test_odometry_planar_rule():
    ros = rc.odometry_to_ros(SAMPLES['Odometry'])
    assert ros.pose.pose.orientation.z == pytest.approx(math.sin(0.25))
    ros.pose.pose.position.z = 0.5
    with pytest.raises(ConversionError, match='planar'):
        rc.odometry_from_ros(ros)
    ros.pose.pose.position.z = 0.0
    ros.pose.pose.orientation.x = 0.1
    with pytest.raises(ConversionError, match='roll/pitch'):
        rc.odometry_from_ros(ros)


def test_battery_cells_rule():
    with pytest.raises(ConversionError, match='16'):
        rc.battery_state_from_ros(sm.BatteryState(cell_voltage=[3.7] * 17))
    ros = rc.battery_state_to_ros(SAMPLES['BatteryState'])
    assert list(ros.cell_voltage) == [4.0] * 6
