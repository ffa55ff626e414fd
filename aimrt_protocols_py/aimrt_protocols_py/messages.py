# SPDX-License-Identifier: Apache-2.0
"""
One import path for every AimRT message class, plus the type-name registry.

AimRT names a channel's message type `pb:<full proto name>`; AimRT >= 0.10 names
the array messages JointStateArray / JointCommandArray / TouchSensorStateArray
with the same fields and numbers as the seed's JointState / JointCommand /
TouchState, so both spellings map to the same class here.
"""
from typing import Any, Dict

from aimrt_protocols_py.common.header_pb2 import Header
from aimrt_protocols_py.errors import UnknownMessageTypeError
from aimrt_protocols_py.geometry.quaternion_pb2 import Quaternion
from aimrt_protocols_py.geometry.vector3_pb2 import Vector3
from aimrt_protocols_py.sensor.imu_state_pb2 import ImuState
from aimrt_protocols_py.sensor.joint_command_pb2 import JointCommand, SingleJointCommand
from aimrt_protocols_py.sensor.joint_state_pb2 import JointState, SingleJointState
from aimrt_protocols_py.sensor.touch_state_pb2 import SingleTouchSensorState, TouchState

__all__ = [
    'Header', 'Quaternion', 'Vector3', 'SingleJointState', 'JointState',
    'SingleJointCommand', 'JointCommand', 'ImuState', 'SingleTouchSensorState',
    'TouchState', 'TYPE_NAMES', 'message_class', 'type_name',
]

_SENSOR = 'aimrt.protocols.sensor.'

# full proto name (no `pb:` prefix) -> class
# The classes protoc generates have no type stubs: Any.
TYPE_NAMES: Dict[str, Any] = {cls.DESCRIPTOR.full_name: cls for cls in (
    Header, Quaternion, Vector3, SingleJointState, JointState, SingleJointCommand,
    JointCommand, ImuState, SingleTouchSensorState, TouchState)}
# AimRT >= 0.10 spellings of the same wire messages
TYPE_NAMES[_SENSOR + 'JointStateArray'] = JointState
TYPE_NAMES[_SENSOR + 'JointCommandArray'] = JointCommand
TYPE_NAMES[_SENSOR + 'TouchSensorStateArray'] = TouchState


def message_class(name: str) -> Any:
    """Class for an AimRT type name, with or without the `pb:` prefix."""
    key = name[3:] if name.startswith('pb:') else name
    try:
        return TYPE_NAMES[key]
    except KeyError:
        raise UnknownMessageTypeError(f'unknown AimRT message type {name!r}') from None


def type_name(cls_or_msg: Any) -> str:
    """Return the AimRT channel type name (`pb:<full name>`) of a class or message."""
    full_name: str = cls_or_msg.DESCRIPTOR.full_name
    return 'pb:' + full_name
