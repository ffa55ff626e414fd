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
test/test_ros_cdr.py checks byte for byte. The wire primitives are ros_wire's.
"""
from operator import attrgetter
import struct
from typing import Any, Callable, Dict, Iterable, Optional, Tuple

from aimrt_protocols_py.conversions import settle_losses, stamp_parts
from ros_wire import ENCAPSULATION, HEADER_SIZE, string_bytes, TIME, U32, Writer

_JOINT_FIELDS = attrgetter('name', 'position', 'velocity', 'effort')
# float64[] position, velocity, effort, all empty: three zero counts, no padding
_EMPTY_SEQS = bytes(12)
# joint count -> struct of that many little-endian float64
_F64_PACKERS: Dict[int, struct.Struct] = {}

# The joint names of a robot are the same in every message: their CDR bytes (which depend on
# the offset modulo 4 they start at) are built once. Bounded: cleared when full.
_NAMES_CACHE: Dict[Tuple[Tuple[str, ...], int], bytes] = {}
_NAMES_CACHE_SIZE = 64


def _names_bytes(names: Tuple[str, ...], offset: int) -> bytes:
    """CDR bytes of a string[] written at `offset` (from the header's end), cached."""
    key = (names, offset & 3)
    data = _NAMES_CACHE.get(key)
    if data is None:
        w = Writer()
        for _ in range(offset & 3):     # the same alignment as at `offset`
            w.u8(0)
        start = HEADER_SIZE + (offset & 3)
        w.string_seq(names)
        data = w.getvalue()[start:]
        if len(_NAMES_CACHE) >= _NAMES_CACHE_SIZE:
            _NAMES_CACHE.clear()
        _NAMES_CACHE[key] = data
    return data


def joint_state_to_ros_cdr(msg: Any, *, accept_losses: Iterable[str] = (),
                           on_loss: Optional[Callable[..., Any]] = None) -> bytes:
    """CDR bytes of ``sensor_msgs/JointState`` for an AimRT JointState (see module doc)."""
    settle_losses(msg, accept_losses, on_loss)
    header = msg.header
    sec, nanosec = stamp_parts(header)
    # one C-level attribute fetch per joint (each element access of a repeated protobuf
    # field builds a wrapper object: touch each joint once)
    rows = list(map(_JOINT_FIELDS, msg.joints))
    count = len(rows)
    parts = [ENCAPSULATION, TIME.pack(sec, nanosec), string_bytes(header.frame_id)]
    offset = 8 + len(parts[2])         # from the encapsulation header's end
    if not count:
        names_data = _names_bytes((), offset)
        offset += len(names_data)
        parts += (names_data, bytes(-offset % 4), _EMPTY_SEQS)
        return b''.join(parts)
    names, positions, velocities, efforts = zip(*rows)
    names_data = _names_bytes(names, offset)
    offset += len(names_data)
    pack = _f64_packer(count).pack
    # three float64[]: each a 4-aligned uint32 count, then 8-aligned values
    pad4 = -offset % 4
    offset += pad4 + 4
    pad8 = -offset % 8
    parts += (names_data, bytes(pad4), U32.pack(count), bytes(pad8), pack(*positions))
    # the offset is a multiple of 8 now: each count below needs 4 bytes of padding
    parts += (U32.pack(count), bytes(4), pack(*velocities),
              U32.pack(count), bytes(4), pack(*efforts))
    return b''.join(parts)


def _f64_packer(count: int) -> 'struct.Struct':
    packer = _F64_PACKERS.get(count)
    if packer is None:
        packer = struct.Struct(f'<{count}d')
        if len(_F64_PACKERS) >= _NAMES_CACHE_SIZE:
            _F64_PACKERS.clear()
        _F64_PACKERS[count] = packer
    return packer
