# SPDX-License-Identifier: Apache-2.0
"""
The fields of a serialized sensor_msgs/JointState command that the node uses, read directly.

rclpy turns a taken JointState into a Python message field by field, checking every value of
every array in Python: for a 12-joint command that is most of the cost of taking it. The
node needs only name, position, velocity and effort as lists, so decode() reads them from
the CDR bytes (little-endian XCDR1, what every ROS 2 middleware here sends) with struct.
Anything else (big-endian, a layout that does not add up) goes to rclpy's own
deserialization, so the node sees exactly the message rclpy would have made.
"""

import struct
from typing import List, Tuple

from rclpy.serialization import deserialize_message
from sensor_msgs.msg import JointState

_CDR_LE = b'\x00\x01'                  # the CDR_LE (XCDR1) encapsulation
_U32 = struct.Struct('<I')

#: (names, positions, velocities, efforts) of a JointState command.
CommandFields = Tuple[List[str], List[float], List[float], List[float]]


class _Malformed(Exception):
    pass


def _string(buf: memoryview, pos: int, end: int) -> Tuple[str, int]:
    """Return (text, next position) of a CDR string at pos (4-aligned)."""
    pos = (pos + 3) & ~3
    if pos + 4 > end:
        raise _Malformed
    (size,) = _U32.unpack_from(buf, pos)
    pos += 4
    if size == 0 or pos + size > end or buf[pos + size - 1] != 0:
        raise _Malformed
    return bytes(buf[pos:pos + size - 1]).decode('utf-8', 'strict'), pos + size


def _doubles(buf: memoryview, pos: int, end: int) -> Tuple[List[float], int]:
    """Return (list of float64, next position) of a CDR float64 sequence at pos."""
    pos = (pos + 3) & ~3
    if pos + 4 > end:
        raise _Malformed
    (count,) = _U32.unpack_from(buf, pos)
    pos += 4
    if count:
        pos = (pos + 7) & ~7
    if pos + 8 * count > end:
        raise _Malformed
    return list(struct.unpack_from(f'<{count}d', buf, pos)), pos + 8 * count


def decode(raw: bytes) -> CommandFields:
    """Return (names, positions, velocities, efforts) of a serialized JointState."""
    try:
        return _decode(raw)
    except (_Malformed, UnicodeDecodeError, struct.error):
        msg = deserialize_message(raw, JointState)
        return list(msg.name), list(msg.position), list(msg.velocity), list(msg.effort)


def _decode(raw: bytes) -> CommandFields:
    if raw[:2] != _CDR_LE:
        raise _Malformed
    buf = memoryview(raw)[4:]           # alignment counts from after the encapsulation
    end = len(buf)
    pos = 8                             # header.stamp: int32 sec, uint32 nanosec
    _, pos = _string(buf, pos, end)     # header.frame_id
    pos = (pos + 3) & ~3
    if pos + 4 > end:
        raise _Malformed
    (count,) = _U32.unpack_from(buf, pos)
    pos += 4
    if count > end:                     # each name takes at least 5 bytes
        raise _Malformed
    names: List[str] = []
    for _ in range(count):
        name, pos = _string(buf, pos, end)
        names.append(name)
    positions, pos = _doubles(buf, pos, end)
    velocities, pos = _doubles(buf, pos, end)
    efforts, pos = _doubles(buf, pos, end)
    return names, positions, velocities, efforts
