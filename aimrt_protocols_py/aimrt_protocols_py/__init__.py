# SPDX-License-Identifier: Apache-2.0
"""
AimRT protocol messages for Python.

Message classes (compiled from proto/ at build time):
    from aimrt_protocols_py.messages import Header, JointState, JointCommand, ImuState, TouchState
or by proto file:
    from aimrt_protocols_py.sensor.joint_state_pb2 import JointState

Binary/JSON codecs: aimrt_protocols_py.codec.  ROS 2 conversions:
aimrt_protocols_py.conversions (imports ROS 2 message packages).
"""
from aimrt_protocols_py.errors import (  # noqa: F401
    AimrtProtocolError, ConversionError, DecodeError, JsonFormatError,
    LossyConversionError, UnknownMessageTypeError, UnsupportedContentTypeError)
