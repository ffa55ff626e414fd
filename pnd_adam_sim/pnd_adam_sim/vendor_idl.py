# SPDX-License-Identifier: Apache-2.0
# mypy: disable-error-code="type-arg, valid-type"
"""
The robot's DDS types, written independently of the ROS 2 ``pnd_adam`` package.

They mirror the vendor IDL (seed 002, INTERFACES.md §3): module ``pnd_adam::msg::dds_``,
struct names with a trailing underscore, every struct ``@final`` (so Cyclone writes plain
XCDR1 CDR, as the robot does), unbounded sequences and strings. They are deliberately NOT
generated from the ``.msg`` files: the interop tests compare our ROS classes against this
second, hand-written definition, so a field-order or type mistake in either shows up as
corrupted or missing data.
"""

from dataclasses import dataclass, field
import re
from typing import Any, TYPE_CHECKING

from cyclonedds.idl import IdlStruct, types as idl_types
from cyclonedds.idl.annotations import final
from cyclonedds.idl.types import float32, int16, int64, uint32, uint8

if TYPE_CHECKING:
    # To the checker an IDL sequence or array is the list it holds. array[T, n] (n a
    # number) is cyclonedds' own notation, not a type: the file's first lines turn off
    # the two checks it fails (the field is then a list of Any).
    array = list
    sequence = list
else:
    array, sequence = idl_types.array, idl_types.sequence

# The vendor's DDS topic names (ROS 2 topic ``lowstate`` is DDS topic ``rt/lowstate``).
TOPIC_LOWSTATE = 'rt/lowstate'
TOPIC_HANDSTATE = 'rt/handstate'
TOPIC_LOWCMD = 'rt/lowcmd'
TOPIC_HANDCMD = 'rt/handcmd'

_NAME_TOKEN = re.compile(r'[A-Za-z_][A-Za-z0-9_]*')


def namespaced(topic: str, namespace: str = '') -> str:
    """
    Return the DDS name of a vendor topic under a ROS namespace.

    ``namespaced('rt/lowstate', '/robot1')`` is ``'rt/robot1/lowstate'``, the DDS topic of the
    ROS 2 topic ``/robot1/lowstate``; the empty namespace (the robot's own) or ``/`` keeps the
    vendor's name. Raises ValueError for a namespace that is not a ROS one.
    """
    if namespace in ('', '/'):
        return topic
    tokens = namespace[1:].split('/')
    if not namespace.startswith('/') or not all(_NAME_TOKEN.fullmatch(t) for t in tokens):
        raise ValueError(f'namespace {namespace!r} is not a ROS namespace (e.g. /robot1)')
    prefix, name = topic.split('/', 1)
    return '/'.join([prefix, *tokens, name])


WIRELESS_REMOTE_LEN = 40
HAND_DOF = 12


def _zeros(n: int) -> Any:
    return field(default_factory=lambda: [0] * n)


def _fzeros(n: int) -> Any:
    return field(default_factory=lambda: [0.0] * n)


@final
@dataclass
class BatteryData_(IdlStruct, typename='pnd_adam::msg::dds_::BatteryData_'):
    timestamp_ms: int64 = 0
    voltage: float32 = 0.0
    current: float32 = 0.0
    power: float32 = 0.0
    wh_accumulated: float32 = 0.0
    status: str = ''


@final
@dataclass
class IMUState_(IdlStruct, typename='pnd_adam::msg::dds_::IMUState_'):
    quaternion: array[float32, 4] = _fzeros(4)
    gyroscope: array[float32, 3] = _fzeros(3)
    accelerometer: array[float32, 3] = _fzeros(3)
    ypr: array[float32, 3] = _fzeros(3)
    temperature: int16 = 0


@final
@dataclass
class MotorCmd_(IdlStruct, typename='pnd_adam::msg::dds_::MotorCmd_'):
    mode: uint8 = 0
    q: float32 = 0.0
    dq: float32 = 0.0
    tau: float32 = 0.0
    kp: float32 = 0.0
    kd: float32 = 0.0
    ki: float32 = 0.0
    reserve: uint32 = 0


@final
@dataclass
class MotorState_(IdlStruct, typename='pnd_adam::msg::dds_::MotorState_'):
    mode: uint8 = 0
    q: float32 = 0.0
    dq: float32 = 0.0
    ddq: float32 = 0.0
    tau_est: float32 = 0.0
    state: uint32 = 0
    reserve: uint32 = 0


@final
@dataclass
class LowCmd_(IdlStruct, typename='pnd_adam::msg::dds_::LowCmd_'):
    mode_pr: uint8 = 0
    motor_cmd: sequence[MotorCmd_] = field(default_factory=list)
    reserve: uint32 = 0


@final
@dataclass
class LowState_(IdlStruct, typename='pnd_adam::msg::dds_::LowState_'):
    mode_pr: uint8 = 0
    tick: uint32 = 0
    imu_state: IMUState_ = field(default_factory=IMUState_)
    motor_state: sequence[MotorState_] = field(default_factory=list)
    wireless_remote: array[int16, WIRELESS_REMOTE_LEN] = _zeros(WIRELESS_REMOTE_LEN)
    battery_data: BatteryData_ = field(default_factory=BatteryData_)
    reserve: uint32 = 0


@final
@dataclass
class HandCmd_(IdlStruct, typename='pnd_adam::msg::dds_::HandCmd_'):
    position: array[uint32, HAND_DOF] = _zeros(HAND_DOF)
    reserve: uint32 = 0


@final
@dataclass
class HandState_(IdlStruct, typename='pnd_adam::msg::dds_::HandState_'):
    position: array[uint32, HAND_DOF] = _zeros(HAND_DOF)
    reserve: uint32 = 0
