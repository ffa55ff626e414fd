import math

import pytest
from sensor_msgs.msg import Imu as RosImu
from sensor_msgs.msg import JointState as RosJointState
from std_msgs.msg import Float64MultiArray, Header as RosHeader, Int32MultiArray

from aimrt_protocols_py import codec, conversions as cv
from aimrt_protocols_py.errors import ConversionError, LossyConversionError
from aimrt_protocols_py.messages import (
    Header, ImuState, JointCommand, JointState, SingleJointCommand, TouchState)


def test_header_ns_split_and_back():
    h = Header(time_stamp=1_700_000_123_999_999_999, frame_id='odom')
    ros = cv.header_to_ros(h)
    assert (ros.stamp.sec, ros.stamp.nanosec, ros.frame_id) == (1_700_000_123, 999_999_999, 'odom')
    assert cv.header_from_ros(ros) == h


def test_header_out_of_range():
    with pytest.raises(ConversionError):
        cv.header_to_ros(Header(time_stamp=(2**31) * 10**9))
    bad = RosHeader()
    bad.stamp.sec = -1
    with pytest.raises(ConversionError):
        cv.header_from_ros(bad)
    bad.stamp.sec, bad.stamp.nanosec = 1, 10**9
    with pytest.raises(ConversionError):
        cv.header_from_ros(bad)


def make_joint_state(n=3):
    return JointState(header=Header(time_stamp=42, frame_id='base'), joints=[
        {'name': f'j{i}', 'position': i + 0.1, 'velocity': -i * 1e-3, 'effort': 1e300 * i}
        for i in range(n)])


def test_joint_state_both_ways():
    msg = make_joint_state()
    ros = cv.joint_state_to_ros(msg)
    assert isinstance(ros, RosJointState)
    assert ros.name == ['j0', 'j1', 'j2'] and list(ros.position) == [0.1, 1.1, 2.1]
    assert list(ros.effort) == [0.0, 1e300, 2e300]
    assert (ros.header.stamp.sec, ros.header.stamp.nanosec) == (0, 42)
    assert cv.joint_state_from_ros(ros) == msg


def test_joint_state_from_ros_empty_columns_and_bad_length():
    ros = RosJointState(name=['a', 'b'], position=[1.0, 2.0])
    back = cv.joint_state_from_ros(ros)
    assert [(j.position, j.velocity, j.effort) for j in back.joints] == [(1.0, 0, 0), (2.0, 0, 0)]
    with pytest.raises(ConversionError, match='velocity'):
        cv.joint_state_from_ros(RosJointState(name=['a', 'b'], velocity=[1.0]))


def test_unknown_fields_are_refused_then_reported_when_accepted():
    msg = codec.decode(JointState, codec.encode(make_joint_state()) + b'\x18\x09')
    with pytest.raises(LossyConversionError) as err:
        cv.joint_state_to_ros(msg)
    assert err.value.fields == {'unknown_fields'}
    seen = []
    ros = cv.joint_state_to_ros(msg, accept_losses={'unknown_fields'}, on_loss=seen.append)
    assert seen == [{'unknown_fields'}] and len(ros.name) == 3


def test_imu_both_ways_with_covariances():
    msg = ImuState(header=Header(time_stamp=10**9 + 5, frame_id='imu'),
                   orientation={'x': 0.1, 'y': 0.2, 'z': 0.3, 'w': 0.9},
                   orientation_covariance=[0.01 * i for i in range(9)],
                   angular_velocity={'x': 1, 'y': 2, 'z': 3},
                   angular_velocity_covariance=[1, 0, 0, 0, 1, 0, 0, 0, 1],
                   linear_acceleration={'x': -1, 'y': 0.5, 'z': 9.8})
    ros = cv.imu_state_to_ros(msg)
    assert isinstance(ros, RosImu)
    assert (ros.orientation.x, ros.orientation.y, ros.orientation.z, ros.orientation.w) == \
        (0.1, 0.2, 0.3, 0.9)
    assert list(ros.orientation_covariance) == [0.01 * i for i in range(9)]
    # AimRT "not given" -> ROS "not provided" convention
    assert list(ros.linear_acceleration_covariance) == [-1.0] + [0.0] * 8
    assert ros.linear_acceleration.z == 9.8 and ros.header.stamp.sec == 1
    assert cv.imu_state_from_ros(ros) == msg


def test_imu_bad_covariance_length():
    with pytest.raises(ConversionError, match='angular_velocity_covariance'):
        cv.imu_state_to_ros(ImuState(angular_velocity_covariance=[1.0, 2.0]))


def test_imu_nan_passes_verbatim():
    ros = cv.imu_state_to_ros(ImuState(orientation={'w': float('nan')}))
    assert math.isnan(ros.orientation.w)


def make_command():
    return JointCommand(header=Header(time_stamp=9, frame_id='x'), joints=[
        SingleJointCommand(name='hip', position=0.1, velocity=0.2, effort=0.3,
                           stiffness=40.0, damping=1.5),
        SingleJointCommand(name='knee', position=-0.1, velocity=0.0, effort=-2.0,
                           stiffness=60.0, damping=2.5)])


def test_joint_command_keeps_stiffness_and_damping():
    cmd = make_command()
    with pytest.raises(LossyConversionError) as err:
        cv.joint_command_to_ros(cmd)
    assert err.value.fields == {'header'}
    ros = cv.joint_command_to_ros(cmd, accept_losses={'header'})
    assert isinstance(ros, Float64MultiArray)
    assert list(ros.data) == [0.1, 0.2, 0.3, 40.0, 1.5, -0.1, 0.0, -2.0, 60.0, 2.5]
    dims = [(d.label, d.size, d.stride) for d in ros.layout.dim]
    assert dims == [('hip,knee', 2, 10), ('position,velocity,effort,stiffness,damping', 5, 5)]
    back = cv.joint_command_from_ros(ros, header=cmd.header)
    assert back == cmd


def test_joint_command_without_header_is_lossless_and_empty_ok():
    cmd = JointCommand()
    ros = cv.joint_command_to_ros(cmd)
    assert cv.joint_command_from_ros(ros) == cmd
    one = JointCommand(joints=[{'name': '', 'stiffness': 1.0}])
    assert cv.joint_command_from_ros(cv.joint_command_to_ros(one)) == one


def test_joint_command_bad_inputs():
    with pytest.raises(ConversionError, match='","'):
        cv.joint_command_to_ros(JointCommand(joints=[{'name': 'a,b'}]))
    ros = cv.joint_command_to_ros(JointCommand(joints=[{'name': 'a'}]))
    ros.data = [1.0, 2.0]
    with pytest.raises(ConversionError):
        cv.joint_command_from_ros(ros)
    with pytest.raises(ConversionError, match='not a joint command'):
        cv.joint_command_from_ros(Float64MultiArray(data=[1.0] * 5))


def test_touch_state_both_ways():
    ts = TouchState(names=['tip', 'palm', 'empty'],
                    states=[{'pressure': [1, -2, 3]}, {'pressure': [2**31 - 1]}, {}])
    ros = cv.touch_state_to_ros(ts)
    assert isinstance(ros, Int32MultiArray)
    assert list(ros.data) == [1, -2, 3, 2**31 - 1]
    assert [(d.label, d.size) for d in ros.layout.dim] == [('tip', 3), ('palm', 1), ('empty', 0)]
    assert cv.touch_state_from_ros(ros) == ts


def test_touch_state_header_and_mismatch():
    ts = TouchState(header=Header(time_stamp=1), names=['a'], states=[{'pressure': [1]}])
    with pytest.raises(LossyConversionError):
        cv.touch_state_to_ros(ts)
    ros = cv.touch_state_to_ros(ts, accept_losses=cv.ALL_LOSSES)
    assert cv.touch_state_from_ros(ros, header=ts.header) == ts
    with pytest.raises(ConversionError):
        cv.touch_state_to_ros(TouchState(names=['a', 'b'], states=[{}]))
    ros.data = [1, 2]
    with pytest.raises(ConversionError):
        cv.touch_state_from_ros(ros)


def test_registry_covers_every_top_level_message():
    assert set(cv.ROS_FORMS) == {JointState, ImuState, JointCommand, TouchState}
