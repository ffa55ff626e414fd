# SPDX-License-Identifier: Apache-2.0
import math

from aimrt_protocols_msgs.msg import JointCommand as RosJointCommand
from aimrt_protocols_msgs.msg import TouchSensorState as RosTouchSensorState
from aimrt_protocols_msgs.msg import TouchState as RosTouchState
from aimrt_protocols_py import codec, conversions as cv
from aimrt_protocols_py.errors import ConversionError, LossyConversionError
from aimrt_protocols_py.messages import (
    Header, ImuState, JointCommand, JointState, SingleJointCommand, TouchState)
import pytest
from sensor_msgs.msg import Imu as RosImu
from sensor_msgs.msg import JointState as RosJointState
from std_msgs.msg import Header as RosHeader


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
    return JointCommand(header=Header(time_stamp=1_700_000_000_000_000_009, frame_id='x'),
                        joints=[
        SingleJointCommand(name='hip', position=0.1, velocity=0.2, effort=0.3,
                           stiffness=40.0, damping=1.5),
        SingleJointCommand(name='knee', position=-0.1, velocity=0.0, effort=-2.0,
                           stiffness=60.0, damping=2.5)])


def test_joint_command_named_fields_header_stiffness_damping_round_trip():
    cmd = make_command()
    ros = cv.joint_command_to_ros(cmd)
    assert isinstance(ros, RosJointCommand)
    assert (ros.header.stamp.sec, ros.header.stamp.nanosec, ros.header.frame_id) == \
        (1_700_000_000, 9, 'x')
    assert ros.name == ['hip', 'knee']
    assert list(ros.position) == [0.1, -0.1] and list(ros.velocity) == [0.2, 0.0]
    assert list(ros.effort) == [0.3, -2.0]
    assert list(ros.stiffness) == [40.0, 60.0] and list(ros.damping) == [1.5, 2.5]
    back = cv.joint_command_from_ros(ros)
    assert back == cmd
    assert codec.encode(back) == codec.encode(cmd)


def test_joint_command_round_trip_through_ros_serialization():
    # what a subscriber in another process receives: CDR bytes, not the Python object
    from rclpy.serialization import deserialize_message, serialize_message
    cmd = make_command()
    cmd.joints.add(name='ankle, with comma', position=float('inf'), damping=-0.0)
    wire = serialize_message(cv.joint_command_to_ros(cmd))
    back = cv.joint_command_from_ros(deserialize_message(wire, RosJointCommand))
    assert back == cmd and math.copysign(1.0, back.joints[2].damping) == -1.0


def test_joint_command_empty_and_default():
    # an unset header comes back set to the same (zero) values, as for every message
    empty = cv.joint_command_from_ros(cv.joint_command_to_ros(JointCommand()))
    assert empty == JointCommand(header=Header()) and empty.HasField('header')
    one = JointCommand(header=Header(), joints=[{'name': '', 'stiffness': 1.0}])
    assert cv.joint_command_from_ros(cv.joint_command_to_ros(one)) == one


def test_joint_command_from_ros_empty_optional_arrays_mean_zero():
    ros = RosJointCommand(name=['a', 'b'], position=[1.0, 2.0], stiffness=[30.0, 40.0])
    ros.header.stamp.sec, ros.header.frame_id = 3, 'base'
    cmd = cv.joint_command_from_ros(ros)
    assert (cmd.header.time_stamp, cmd.header.frame_id) == (3 * 10**9, 'base')
    assert [(j.name, j.position, j.velocity, j.effort, j.stiffness, j.damping)
            for j in cmd.joints] == [('a', 1.0, 0.0, 0.0, 30.0, 0.0),
                                     ('b', 2.0, 0.0, 0.0, 40.0, 0.0)]


@pytest.mark.parametrize('field', ['position', 'velocity', 'effort', 'stiffness', 'damping'])
def test_joint_command_from_ros_wrong_length_is_refused(field):
    full = {f: [1.0, 2.0] for f in ('position', 'velocity', 'effort', 'stiffness', 'damping')}
    for bad in ([1.0], [1.0, 2.0, 3.0]):
        ros = RosJointCommand(name=['a', 'b'], **{**full, field: bad})
        with pytest.raises(ConversionError, match=field):
            cv.joint_command_from_ros(ros)


def test_joint_command_from_ros_position_may_not_be_empty():
    with pytest.raises(ConversionError, match='position'):
        cv.joint_command_from_ros(RosJointCommand(name=['a'], velocity=[1.0]))


def test_joint_command_bad_header_refused():
    ros = cv.joint_command_to_ros(make_command())
    ros.header.stamp.sec = -5
    with pytest.raises(ConversionError, match='sec'):
        cv.joint_command_from_ros(ros)
    with pytest.raises(ConversionError, match='int32'):
        cv.joint_command_to_ros(JointCommand(header=Header(time_stamp=2**63)))


def test_joint_command_unknown_fields_refused_by_default():
    raw = codec.encode(make_command())
    # AimRT >= 0.10 Header.sequence_num = 3 inside field 1 (header)
    hdr = codec.encode(make_command().header) + b'\x18\x07'
    msg = codec.decode(JointCommand, bytes([0x0A, len(hdr)]) + hdr + raw[2 + raw[1]:])
    with pytest.raises(LossyConversionError) as err:
        cv.joint_command_to_ros(msg)
    assert err.value.fields == {'unknown_fields'}
    seen = []
    ros = cv.joint_command_to_ros(msg, accept_losses=cv.ALL_LOSSES, on_loss=seen.append)
    assert seen == [{'unknown_fields'}]
    assert cv.joint_command_from_ros(ros) == make_command()


def make_touch():
    return TouchState(header=Header(time_stamp=2_000_000_001, frame_id='hand'),
                      names=['tip', 'palm', 'empty'],
                      states=[{'pressure': [1, -2, 3]}, {'pressure': [2**31 - 1, -2**31]}, {}])


def test_touch_state_header_and_ragged_states_round_trip():
    ts = make_touch()
    ros = cv.touch_state_to_ros(ts)
    assert isinstance(ros, RosTouchState)
    assert (ros.header.stamp.sec, ros.header.stamp.nanosec, ros.header.frame_id) == \
        (2, 1, 'hand')
    assert ros.names == ['tip', 'palm', 'empty']
    assert [list(s.pressure) for s in ros.states] == [[1, -2, 3], [2**31 - 1, -2**31], []]
    assert all(isinstance(s, RosTouchSensorState) for s in ros.states)
    assert cv.touch_state_from_ros(ros) == ts


def test_touch_state_round_trip_through_ros_serialization():
    from rclpy.serialization import deserialize_message, serialize_message
    ts = make_touch()
    wire = serialize_message(cv.touch_state_to_ros(ts))
    assert cv.touch_state_from_ros(deserialize_message(wire, RosTouchState)) == ts
    assert cv.touch_state_from_ros(cv.touch_state_to_ros(TouchState())) == \
        TouchState(header=Header())


def test_touch_state_names_states_mismatch_refused_both_ways():
    with pytest.raises(ConversionError, match='2 names but 1 states'):
        cv.touch_state_to_ros(TouchState(names=['a', 'b'], states=[{}]))
    ros = RosTouchState(names=['a'], states=[RosTouchSensorState(), RosTouchSensorState()])
    with pytest.raises(ConversionError, match='1 names but 2 states'):
        cv.touch_state_from_ros(ros)


def test_touch_state_unknown_fields_refused_by_default():
    msg = codec.decode(TouchState, codec.encode(make_touch()) + b'\x20\x01')  # field 4
    with pytest.raises(LossyConversionError):
        cv.touch_state_to_ros(msg)
    ros = cv.touch_state_to_ros(msg, accept_losses={'unknown_fields'})
    assert cv.touch_state_from_ros(ros) == make_touch()


def test_registry_covers_every_top_level_message_both_ways():
    assert set(cv.ROS_FORMS) == {JointState, ImuState, JointCommand, TouchState}
    assert cv.ALL_LOSSES == {'unknown_fields'}
    imu = ImuState(header=Header(time_stamp=1), orientation={'w': 1.0},
                   angular_velocity={'x': 0.5}, linear_acceleration={'z': 9.8})
    samples = {JointState: make_joint_state(), ImuState: imu,
               JointCommand: make_command(), TouchState: make_touch()}
    for cls, (ros_cls, to_ros, from_ros) in cv.ROS_FORMS.items():
        ros = to_ros(samples[cls])
        assert isinstance(ros, ros_cls)
        assert from_ros(ros) == samples[cls]
