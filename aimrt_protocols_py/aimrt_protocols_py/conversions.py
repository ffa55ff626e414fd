# SPDX-License-Identifier: Apache-2.0
"""
Field-by-field conversions between AimRT protobuf messages and ROS 2 messages.

Every conversion is lossless except for one thing no ROS 2 message can carry:
protobuf fields unknown to this package's schema (e.g. AimRT >= 0.10's
Header.sequence_num = 3).  Every `*_to_ros` function refuses to drop them
(LossyConversionError, loss name 'unknown_fields') unless the caller names that
loss in `accept_losses`; accepted losses are reported through
`on_loss(frozenset)` so a caller can log them.  Nothing is accepted by default.
Values or shapes that do not fit the target type raise ConversionError.
`*_from_ros` functions never lose data (the AimRT schema holds every ROS field).

Header <-> std_msgs/Header  (every message below converts its header this way)
  time_stamp (uint64 ns) <-> stamp.sec = ns // 1e9, stamp.nanosec = ns % 1e9
      (exact; sec is int32 in ROS: stamps after 2038-01-19 raise ConversionError;
      ROS->AimRT refuses negative sec or nanosec >= 1e9)
  frame_id <-> frame_id
  unknown fields (sequence_num) -> no ROS field: loss 'unknown_fields'
  An unset AimRT header becomes a zero ROS header and comes back set (same values).

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

JointCommand <-> aimrt_protocols_msgs/JointCommand  (parallel arrays, JointState style)
  joints[i].name / position / velocity / effort / stiffness / damping
      <-> name[i] / position[i] / velocity[i] / effort[i] / stiffness[i] / damping[i]
  AimRT->ROS always fills every array with one entry per joint.
  ROS->AimRT: position must have len(name) entries; velocity, effort, stiffness
  and damping must have len(name) entries or be empty, and an empty one means
  0.0 for every joint (what AimRT's simulator would apply for an unset field:
  no velocity target, no feed-forward, no stiffness/damping term).  Any other
  length raises ConversionError.
  Why this form rather than a standard message: no ROS 2 message in
  std_msgs/sensor_msgs/trajectory_msgs carries a header plus per-joint stiffness
  and damping; named fields stay readable with `ros2 topic echo`.

TouchState <-> aimrt_protocols_msgs/TouchState
  header <-> header; names[i] <-> names[i];
  states[i].pressure (int32[]) <-> states[i].pressure (int32[], TouchSensorState)
  names and states must have equal length (one state per named sensor) in both
  directions, else ConversionError.
"""
from array import array
from typing import Any, Callable, Dict, FrozenSet, Iterable, Optional, Sequence, Tuple

from aimrt_protocols_msgs.msg import JointCommand as RosJointCommand
from aimrt_protocols_msgs.msg import TouchSensorState as RosTouchSensorState
from aimrt_protocols_msgs.msg import TouchState as RosTouchState
from aimrt_protocols_py.codec import has_unknown_fields
from aimrt_protocols_py.errors import ConversionError, LossyConversionError
from aimrt_protocols_py.messages import (
    Header, ImuState, JointCommand, JointState, SingleJointCommand,
    SingleJointState, SingleTouchSensorState, TouchState)
from builtin_interfaces.msg import Time
from sensor_msgs.msg import Imu as RosImu
from sensor_msgs.msg import JointState as RosJointState
from std_msgs.msg import Header as RosHeader

LOSS_UNKNOWN_FIELDS = 'unknown_fields'
ALL_LOSSES = frozenset({LOSS_UNKNOWN_FIELDS})

NS_PER_S = 1_000_000_000
_INT32_MAX = 2**31 - 1
_COV_NOT_PROVIDED = (-1.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0)
# AimRT (protobuf) and ROS 2 (rosidl) messages are Any: neither generator ships type stubs.
OnLoss = Optional[Callable[[FrozenSet[str]], Any]]


def settle_losses(msg: Any, accept_losses: Iterable[str], on_loss: OnLoss) -> None:
    """Raise LossyConversionError for unknown fields unless accepted (then on_loss)."""
    if not has_unknown_fields(msg):
        return
    losses = frozenset({LOSS_UNKNOWN_FIELDS})
    refused = losses.difference(accept_losses)
    if refused:
        raise LossyConversionError(msg.DESCRIPTOR.full_name, refused)
    if on_loss is not None:
        on_loss(losses)


# ---------------------------------------------------------------- Header
def stamp_parts(header: Any) -> Tuple[int, int]:
    """(sec, nanosec) of Header.time_stamp; ConversionError past int32 seconds."""
    sec, nanosec = divmod(header.time_stamp, NS_PER_S)
    if sec > _INT32_MAX:
        raise ConversionError(
            f'Header.time_stamp {header.time_stamp} ns is beyond builtin_interfaces/Time '
            '(int32 seconds)')
    return int(sec), int(nanosec)


def header_to_ros(header: Any) -> Any:
    """Return the std_msgs/Header of an AimRT Header (ConversionError past int32 seconds)."""
    sec, nanosec = stamp_parts(header)
    return RosHeader(stamp=Time(sec=sec, nanosec=nanosec), frame_id=header.frame_id)


def header_from_ros(ros_header: Any) -> Any:
    """Return the AimRT Header of a std_msgs/Header (ConversionError for a bad stamp)."""
    sec, nanosec = ros_header.stamp.sec, ros_header.stamp.nanosec
    if sec < 0:
        raise ConversionError(f'stamp.sec {sec} < 0 cannot be a uint64 time_stamp')
    if nanosec >= NS_PER_S:
        raise ConversionError(f'stamp.nanosec {nanosec} is not below 1e9')
    return Header(time_stamp=sec * NS_PER_S + nanosec, frame_id=ros_header.frame_id)


# ---------------------------------------------------------------- JointState
def joint_state_to_ros(msg: Any, *, accept_losses: Iterable[str] = (),
                       on_loss: OnLoss = None) -> Any:
    settle_losses(msg, accept_losses, on_loss)
    joints = msg.joints
    out = RosJointState(header=header_to_ros(msg.header))
    out.name = [j.name for j in joints]
    out.position = array('d', [j.position for j in joints])
    out.velocity = array('d', [j.velocity for j in joints])
    out.effort = array('d', [j.effort for j in joints])
    return out


def _column(values: Sequence[float], n: int, what: str, *,
            may_be_empty: bool = True) -> Sequence[float]:
    """values, checked to hold one entry per name; empty -> n zeros if allowed."""
    if len(values) == n:
        return values
    if may_be_empty and len(values) == 0:
        return [0.0] * n
    raise ConversionError(f'{what} has {len(values)} values for {n} names '
                          f'(must be {n}{" or empty" if may_be_empty else ""})')


def joint_state_from_ros(ros_msg: Any) -> Any:
    n = len(ros_msg.name)
    pos = _column(ros_msg.position, n, 'sensor_msgs/JointState.position')
    vel = _column(ros_msg.velocity, n, 'sensor_msgs/JointState.velocity')
    eff = _column(ros_msg.effort, n, 'sensor_msgs/JointState.effort')
    out = JointState(header=header_from_ros(ros_msg.header))
    out.joints.extend(
        SingleJointState(name=name, position=p, velocity=v, effort=e)
        for name, p, v, e in zip(ros_msg.name, pos, vel, eff))
    return out


# ---------------------------------------------------------------- ImuState
def _cov_to_ros(values: Sequence[float], what: str) -> Sequence[float]:
    if len(values) == 0:
        return _COV_NOT_PROVIDED
    if len(values) != 9:
        raise ConversionError(f'ImuState.{what} has {len(values)} elements '
                              '(must be 9, 3x3 row-major, or empty)')
    return values


def _cov_from_ros(values: Iterable[float]) -> Sequence[float]:
    floats = [float(v) for v in values]
    return [] if tuple(floats) == _COV_NOT_PROVIDED else floats


def imu_state_to_ros(msg: Any, *, accept_losses: Iterable[str] = (),
                     on_loss: OnLoss = None) -> Any:
    settle_losses(msg, accept_losses, on_loss)
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


def imu_state_from_ros(ros_msg: Any) -> Any:
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
def joint_command_to_ros(msg: Any, *, accept_losses: Iterable[str] = (),
                         on_loss: OnLoss = None) -> Any:
    settle_losses(msg, accept_losses, on_loss)
    joints = msg.joints
    out = RosJointCommand(header=header_to_ros(msg.header))
    out.name = [j.name for j in joints]
    out.position = array('d', [j.position for j in joints])
    out.velocity = array('d', [j.velocity for j in joints])
    out.effort = array('d', [j.effort for j in joints])
    out.stiffness = array('d', [j.stiffness for j in joints])
    out.damping = array('d', [j.damping for j in joints])
    return out


def joint_command_from_ros(ros_msg: Any) -> Any:
    """aimrt_protocols_msgs/JointCommand -> JointCommand (array rules in the module doc)."""
    n = len(ros_msg.name)
    what = 'aimrt_protocols_msgs/JointCommand.'
    # position is the one target every command needs: "empty" is not 0.0 rad
    pos = _column(ros_msg.position, n, what + 'position', may_be_empty=False)
    vel = _column(ros_msg.velocity, n, what + 'velocity')
    eff = _column(ros_msg.effort, n, what + 'effort')
    kp = _column(ros_msg.stiffness, n, what + 'stiffness')
    kd = _column(ros_msg.damping, n, what + 'damping')
    out = JointCommand(header=header_from_ros(ros_msg.header))
    out.joints.extend(
        SingleJointCommand(name=name, position=p, velocity=v, effort=e, stiffness=k, damping=d)
        for name, p, v, e, k, d in zip(ros_msg.name, pos, vel, eff, kp, kd))
    return out


# ---------------------------------------------------------------- TouchState
def touch_state_to_ros(msg: Any, *, accept_losses: Iterable[str] = (),
                       on_loss: OnLoss = None) -> Any:
    if len(msg.names) != len(msg.states):
        raise ConversionError(f'TouchState has {len(msg.names)} names but '
                              f'{len(msg.states)} states')
    settle_losses(msg, accept_losses, on_loss)
    out = RosTouchState(header=header_to_ros(msg.header))
    out.names = list(msg.names)
    out.states = [RosTouchSensorState(pressure=array('i', s.pressure)) for s in msg.states]
    return out


def touch_state_from_ros(ros_msg: Any) -> Any:
    if len(ros_msg.names) != len(ros_msg.states):
        raise ConversionError(f'aimrt_protocols_msgs/TouchState has {len(ros_msg.names)} '
                              f'names but {len(ros_msg.states)} states')
    out = TouchState(header=header_from_ros(ros_msg.header))
    out.names.extend(ros_msg.names)
    out.states.extend(SingleTouchSensorState(pressure=s.pressure) for s in ros_msg.states)
    return out


# AimRT class -> (ROS 2 class, to_ros, from_ros)
ROS_FORMS: Dict[Any, Tuple[Any, Callable[..., Any], Callable[[Any], Any]]] = {
    JointState: (RosJointState, joint_state_to_ros, joint_state_from_ros),
    ImuState: (RosImu, imu_state_to_ros, imu_state_from_ros),
    JointCommand: (RosJointCommand, joint_command_to_ros, joint_command_from_ros),
    TouchState: (RosTouchState, touch_state_to_ros, touch_state_from_ros),
}
