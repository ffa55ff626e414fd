# SPDX-License-Identifier: Apache-2.0
"""
AimRT message -> serialized ROS 2 message (CDR), without building the Python ROS message.

rclpy's ``Publisher.publish`` accepts the serialized bytes of a message (~1.5 us against
~9 us for a message object on this machine). ``joint_state_to_ros_cdr`` gives the bytes
of ``serialize_message(conversions.joint_state_to_ros(msg, ...))`` with the same checks and
errors (unknown fields settled by ``accept_losses``/``on_loss``, stamps past int32 seconds
refused).

What rmw_fastrtps_cpp serializes (Fast DDS 2.14 on Jazzy, 3.2 on Kilted; XCDR1, little
endian): a 4-byte encapsulation header ``00 01 00 00``, then the fields in declaration
order, each primitive aligned to its own size counted from the end of that header; a string
is a uint32 byte count including the NUL, the UTF-8 bytes up to the first NUL, and a NUL; a
sequence is a uint32 element count and the elements. With empty float64 sequences
rclpy's buffer is longer than its content: Fast DDS sizes it as if each empty sequence
were padded to 8 and leaves the extra trailing bytes uninitialised (deserialization never
reads them); this module sends the content only. Fast DDS leaves alignment padding
uninitialised, this module writes zeros there; every other byte equals rclpy's, which
test/test_ros_cdr.py checks byte for byte.
"""
import struct

from aimrt_protocols_py.conversions import settle_losses, stamp_parts

ENCAPSULATION = b'\x00\x01\x00\x00'     # CDR_LE, options 0
_BASE = len(ENCAPSULATION)
_TIME = struct.Struct('<iI')
_U32 = struct.Struct('<I')


def _align(buf, size):
    rem = (len(buf) - _BASE) % size
    if rem:
        buf += bytes(size - rem)


def _string(buf, text):
    """Append a CDR string (the caller has aligned to 4): rclpy sends UTF-8 up to a NUL."""
    raw = text.encode('utf-8')
    nul = raw.find(b'\x00')
    if nul >= 0:
        raw = raw[:nul]
    buf += _U32.pack(len(raw) + 1)
    buf += raw
    buf.append(0)


def _doubles(buf, values):
    _align(buf, 4)
    buf += _U32.pack(len(values))
    if values:
        _align(buf, 8)
        buf += struct.pack('<%dd' % len(values), *values)


def joint_state_to_ros_cdr(msg, *, accept_losses=(), on_loss=None):
    """CDR bytes of ``sensor_msgs/JointState`` for an AimRT JointState (see module doc)."""
    settle_losses(msg, accept_losses, on_loss)
    sec, nanosec = stamp_parts(msg.header)
    buf = bytearray(ENCAPSULATION)
    buf += _TIME.pack(sec, nanosec)
    _string(buf, msg.header.frame_id)
    joints = msg.joints
    _align(buf, 4)
    buf += _U32.pack(len(joints))
    for joint in joints:
        _align(buf, 4)
        _string(buf, joint.name)
    _doubles(buf, [j.position for j in joints])
    _doubles(buf, [j.velocity for j in joints])
    _doubles(buf, [j.effort for j in joints])
    return bytes(buf)
