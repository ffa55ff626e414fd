"""Field-by-field conversions between AimRT protobuf messages and ROS 2 messages.

Every `*_to_ros` function refuses (LossyConversionError) to drop data that the
ROS 2 message cannot carry unless the caller names that loss in
`accept_losses`; accepted losses are reported through `on_loss(frozenset)` so a
caller can log them.  Loss names:
  'unknown_fields'  unknown protobuf fields (e.g. AimRT >= 0.10 Header.sequence_num)
  'header'          a non-empty Header, for the MultiArray forms that have none
Values that do not fit the target type raise ConversionError.

Header <-> std_msgs/Header
  time_stamp (uint64 ns) <-> stamp.sec = ns // 1e9, stamp.nanosec = ns % 1e9
      (exact; sec is int32 in ROS: stamps after 2038-01-19 raise ConversionError;
      ROS->AimRT refuses negative sec or nanosec >= 1e9)
  frame_id <-> frame_id
  unknown fields (sequence_num) -> no ROS field: loss 'unknown_fields'

JointState <-> sensor_msgs/JointState
  joints[i].name / position / velocity / effort <-> name[i] / position[i] / velocity[i] / effort[i]
  ROS->AimRT: an empty position/velocity/effort array (ROS's "not provided")
  becomes 0.0 for every joint (AimRT has no "absent"); any other length than
  len(name) raises ConversionError.

ImuState <-> sensor_msgs/Imu
  orientation x,y,z,w <-> orientation x,y,z,w (same order; values verbatim, no normalising)
  angular_velocity, linear_acceleration x,y,z <-> same
  *_covariance: 9 elements (3x3 row-major) <-> float64[9] verbatim;
      an empty AimRT covariance ("not given") <-> ROS's "not provided" convention
      [-1, 0, 0, 0, 0, 0, 0, 0, 0]; any other length raises ConversionError.
  An unset AimRT orientation/vector becomes zeros and comes back set (same values).

JointCommand <-> std_msgs/Float64MultiArray  (why: see below)
  data = joint-major [position, velocity, effort, stiffness, damping] per joint
  layout.dim[0] = {label: joint names joined by ',', size: N, stride: 5N}
  layout.dim[1] = {label: 'position,velocity,effort,stiffness,damping', size: 5, stride: 5}
  layout.data_offset = 0
  header: not carried (loss 'header'); from ROS the caller supplies it.
  Joint names containing ',' raise ConversionError.
  Why: no ROS 2 message in std_msgs/sensor_msgs/geometry_msgs/trajectory_msgs
  carries per-joint stiffness and damping.  This data order is exactly what
  ros2_control's multi_interface_forward_command_controller consumes for joints
  with [position, velocity, effort, stiffness, damping] command interfaces, and
  the layout labels keep the joint names, so the command converts back losslessly.

TouchState <-> std_msgs/Int32MultiArray
  one layout.dim per sensor: {label: names[i], size: len(states[i].pressure), stride: same}
  data = every sensor's pressure values, concatenated in order; data_offset = 0
  header: not carried (loss 'header').  names and states must have equal length.
  Why: per-sensor arrays of different lengths need a ragged layout; MultiArray
  dims carry a label (the sensor name) and a size each, int32 is kept exactly.
"""
from array import array

from builtin_interfaces.msg import Time
from sensor_msgs.msg import Imu as RosImu
from sensor_msgs.msg import JointState as RosJointState
from std_msgs.msg import Float64MultiArray, Header as RosHeader, Int32MultiArray
from std_msgs.msg import MultiArrayDimension

from aimrt_protocols_py.codec import has_unknown_fields
from aimrt_protocols_py.errors import ConversionError, LossyConversionError
from aimrt_protocols_py.messages import (
    Header, ImuState, JointCommand, JointState, SingleJointCommand,
    SingleJointState, SingleTouchSensorState, TouchState)

LOSS_UNKNOWN_FIELDS = 'unknown_fields'
LOSS_HEADER = 'header'
ALL_LOSSES = frozenset({LOSS_UNKNOWN_FIELDS, LOSS_HEADER})

NS_PER_S = 1_000_000_000
_INT32_MAX = 2**31 - 1
COMMAND_INTERFACES = ('position', 'velocity', 'effort', 'stiffness', 'damping')
COMMAND_INTERFACES_LABEL = ','.join(COMMAND_INTERFACES)
_COV_NOT_PROVIDED = (-1.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0)


def _header_is_set(msg):
    return msg.HasField('header') and (
        msg.header.time_stamp != 0 or msg.header.frame_id != '')


def _settle_losses(msg, carries_header, accept_losses, on_loss):
    losses = set()
    if has_unknown_fields(msg):
        losses.add(LOSS_UNKNOWN_FIELDS)
    if not carries_header and _header_is_set(msg):
        losses.add(LOSS_HEADER)
    if not losses:
        return
    refused = losses.difference(accept_losses)
    if refused:
        raise LossyConversionError(msg.DESCRIPTOR.full_name, refused)
    if on_loss is not None:
        on_loss(frozenset(losses))


# ---------------------------------------------------------------- Header
def header_to_ros(header):
    sec, nanosec = divmod(header.time_stamp, NS_PER_S)
    if sec > _INT32_MAX:
        raise ConversionError(
            f'Header.time_stamp {header.time_stamp} ns is beyond builtin_interfaces/Time '
            '(int32 seconds)')
    return RosHeader(stamp=Time(sec=sec, nanosec=nanosec), frame_id=header.frame_id)


def header_from_ros(ros_header):
    sec, nanosec = ros_header.stamp.sec, ros_header.stamp.nanosec
    if sec < 0:
        raise ConversionError(f'stamp.sec {sec} < 0 cannot be a uint64 time_stamp')
    if nanosec >= NS_PER_S:
        raise ConversionError(f'stamp.nanosec {nanosec} is not below 1e9')
    return Header(time_stamp=sec * NS_PER_S + nanosec, frame_id=ros_header.frame_id)


# ---------------------------------------------------------------- JointState
def joint_state_to_ros(msg, *, accept_losses=(), on_loss=None):
    _settle_losses(msg, True, accept_losses, on_loss)
    joints = msg.joints
    out = RosJointState(header=header_to_ros(msg.header))
    out.name = [j.name for j in joints]
    out.position = array('d', [j.position for j in joints])
    out.velocity = array('d', [j.velocity for j in joints])
    out.effort = array('d', [j.effort for j in joints])
    return out


def _optional_column(values, n, what):
    if len(values) == 0:
        return [0.0] * n
    if len(values) != n:
        raise ConversionError(f'sensor_msgs/JointState.{what} has {len(values)} values '
                              f'for {n} names (must be {n} or empty)')
    return values


def joint_state_from_ros(ros_msg):
    n = len(ros_msg.name)
    pos = _optional_column(ros_msg.position, n, 'position')
    vel = _optional_column(ros_msg.velocity, n, 'velocity')
    eff = _optional_column(ros_msg.effort, n, 'effort')
    out = JointState(header=header_from_ros(ros_msg.header))
    out.joints.extend(
        SingleJointState(name=name, position=p, velocity=v, effort=e)
        for name, p, v, e in zip(ros_msg.name, pos, vel, eff))
    return out


# ---------------------------------------------------------------- ImuState
def _cov_to_ros(values, what):
    if len(values) == 0:
        return _COV_NOT_PROVIDED
    if len(values) != 9:
        raise ConversionError(f'ImuState.{what} has {len(values)} elements '
                              '(must be 9, 3x3 row-major, or empty)')
    return values


def _cov_from_ros(values):
    values = [float(v) for v in values]
    return [] if tuple(values) == _COV_NOT_PROVIDED else values


def imu_state_to_ros(msg, *, accept_losses=(), on_loss=None):
    _settle_losses(msg, True, accept_losses, on_loss)
    out = RosImu(header=header_to_ros(msg.header))
    q, w, a = msg.orientation, msg.angular_velocity, msg.linear_acceleration
    out.orientation.x, out.orientation.y, out.orientation.z, out.orientation.w = q.x, q.y, q.z, q.w
    out.angular_velocity.x, out.angular_velocity.y, out.angular_velocity.z = w.x, w.y, w.z
    out.linear_acceleration.x, out.linear_acceleration.y, out.linear_acceleration.z = a.x, a.y, a.z
    out.orientation_covariance = _cov_to_ros(msg.orientation_covariance, 'orientation_covariance')
    out.angular_velocity_covariance = _cov_to_ros(
        msg.angular_velocity_covariance, 'angular_velocity_covariance')
    out.linear_acceleration_covariance = _cov_to_ros(
        msg.linear_acceleration_covariance, 'linear_acceleration_covariance')
    return out


def imu_state_from_ros(ros_msg):
    out = ImuState(header=header_from_ros(ros_msg.header))
    q, w, a = ros_msg.orientation, ros_msg.angular_velocity, ros_msg.linear_acceleration
    out.orientation.x, out.orientation.y, out.orientation.z, out.orientation.w = q.x, q.y, q.z, q.w
    out.angular_velocity.x, out.angular_velocity.y, out.angular_velocity.z = w.x, w.y, w.z
    out.linear_acceleration.x, out.linear_acceleration.y, out.linear_acceleration.z = a.x, a.y, a.z
    out.orientation_covariance.extend(_cov_from_ros(ros_msg.orientation_covariance))
    out.angular_velocity_covariance.extend(_cov_from_ros(ros_msg.angular_velocity_covariance))
    out.linear_acceleration_covariance.extend(
        _cov_from_ros(ros_msg.linear_acceleration_covariance))
    return out


# ---------------------------------------------------------------- JointCommand
def joint_command_to_ros(msg, *, accept_losses=(), on_loss=None):
    names = [j.name for j in msg.joints]
    bad = [n for n in names if ',' in n]
    if bad:
        raise ConversionError(f'joint names {bad} contain "," which the '
                              'Float64MultiArray layout uses as separator')
    _settle_losses(msg, False, accept_losses, on_loss)
    n = len(names)
    data = array('d')
    for j in msg.joints:
        data.extend((j.position, j.velocity, j.effort, j.stiffness, j.damping))
    out = Float64MultiArray(data=data)
    out.layout.dim = [
        MultiArrayDimension(label=','.join(names), size=n, stride=5 * n),
        MultiArrayDimension(label=COMMAND_INTERFACES_LABEL, size=5, stride=5)]
    out.layout.data_offset = 0
    return out


def joint_command_from_ros(ros_msg, *, header=None):
    """Float64MultiArray (layout above) -> JointCommand; `header` is an AimRT Header or None."""
    dims = ros_msg.layout.dim
    if len(dims) != 2 or dims[1].label != COMMAND_INTERFACES_LABEL or dims[1].size != 5:
        raise ConversionError(
            'Float64MultiArray is not a joint command: layout.dim must be '
            f'[joints, {COMMAND_INTERFACES_LABEL!r} (size 5)]')
    n = dims[0].size
    if ros_msg.layout.data_offset != 0 or len(ros_msg.data) != 5 * n:
        raise ConversionError(f'joint command has {len(ros_msg.data)} values and data_offset '
                              f'{ros_msg.layout.data_offset} for {n} joints (need {5 * n}, 0)')
    names = dims[0].label.split(',') if n else []
    if len(names) != n:
        raise ConversionError(f'joint command names {names!r} do not match size {n}')
    out = JointCommand()
    if header is not None:
        out.header.CopyFrom(header)
    data = ros_msg.data
    out.joints.extend(
        SingleJointCommand(name=name, position=data[5 * i], velocity=data[5 * i + 1],
                           effort=data[5 * i + 2], stiffness=data[5 * i + 3],
                           damping=data[5 * i + 4])
        for i, name in enumerate(names))
    return out


# ---------------------------------------------------------------- TouchState
def touch_state_to_ros(msg, *, accept_losses=(), on_loss=None):
    if len(msg.names) != len(msg.states):
        raise ConversionError(f'TouchState has {len(msg.names)} names but '
                              f'{len(msg.states)} states')
    _settle_losses(msg, False, accept_losses, on_loss)
    out = Int32MultiArray()
    data = array('i')
    dims = []
    for name, state in zip(msg.names, msg.states):
        size = len(state.pressure)
        dims.append(MultiArrayDimension(label=name, size=size, stride=size))
        data.extend(state.pressure)
    out.layout.dim = dims
    out.layout.data_offset = 0
    out.data = data
    return out


def touch_state_from_ros(ros_msg, *, header=None):
    dims = ros_msg.layout.dim
    total = sum(d.size for d in dims)
    if ros_msg.layout.data_offset != 0 or total != len(ros_msg.data):
        raise ConversionError(f'touch layout sizes add up to {total} (data_offset '
                              f'{ros_msg.layout.data_offset}) but data has {len(ros_msg.data)}')
    out = TouchState()
    if header is not None:
        out.header.CopyFrom(header)
    start = 0
    for d in dims:
        out.names.append(d.label)
        out.states.append(SingleTouchSensorState(pressure=ros_msg.data[start:start + d.size]))
        start += d.size
    return out


# AimRT class -> (ROS 2 class, to_ros, from_ros); from_ros of the MultiArray
# forms takes the header as a keyword because the ROS form has none.
ROS_FORMS = {
    JointState: (RosJointState, joint_state_to_ros, joint_state_from_ros),
    ImuState: (RosImu, imu_state_to_ros, imu_state_from_ros),
    JointCommand: (Float64MultiArray, joint_command_to_ros, joint_command_from_ros),
    TouchState: (Int32MultiArray, touch_state_to_ros, touch_state_from_ros),
}
