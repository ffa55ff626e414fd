# Copyright 2025 The horus_msg_py authors
# SPDX-License-Identifier: Apache-2.0
"""
HORUS bytes -> serialized ROS 2 message (CDR), without building a Python message.

rclpy's ``Publisher.publish`` accepts the serialized bytes of a message, which is several
times cheaper than publishing a message object, and building the ``sensor_msgs/LaserScan``
object from HORUS bytes would cost more again (figures: benchmarks/README.md). For the
fixed layouts below the CDR bytes are assembled directly from the HORUS slot.

What rmw_fastrtps_cpp serializes (Fast DDS 2.14 on Jazzy, 3.2 on Kilted; XCDR1, little
endian): a 4-byte encapsulation header ``00 01 00 00``, then the fields in declaration
order, each primitive aligned to its own size counted from the end of that header; a string
is a uint32 byte count including the NUL, the UTF-8 bytes and the NUL; a sequence is a uint32
element count and the elements. Fast DDS leaves alignment padding bytes uninitialised, this
module writes zeros there. Every other byte equals
``rclpy.serialization.serialize_message(ros_conversions.<type>_to_ros(...))``, which
test/test_ros_cdr.py checks byte for byte for every type encoded here. The wire primitives
(encapsulation, alignment, strings) are ros_wire's.

The same checks as the message path apply: a stamp beyond int32 seconds raises
ConversionError; a frame id must be a valid HORUS name (checked once, per route).
"""

import struct
from typing import Dict, Type

from ros_wire import ENCAPSULATION, padding, string_bytes, TIME, U32

from .layouts import LASER_SCAN_RANGES
from .messages import encode_name, LaserScan
from .ros_conversions import stamp_parts

_U64 = struct.Struct('<Q')

# HORUS LaserScan offsets (layouts.LAYOUTS['LaserScan']).
_RANGES_END = 4 * LASER_SCAN_RANGES          # ranges: float32[360] at 0
_ANGLES = slice(1440, 1448)                  # angle_min, angle_max
_RANGE_LIMITS = slice(1448, 1456)            # range_min, range_max
_TIMING = slice(1456, 1468)                  # angle_increment, time_increment, scan_time
_STAMP = 1472
_RANGE_COUNT = U32.pack(LASER_SCAN_RANGES)
_NO_INTENSITIES = U32.pack(0)


def header_tail(frame_id: str) -> bytes:
    """
    CDR of ``std_msgs/Header.frame_id`` plus the padding to the next 4-byte boundary.

    The stamp (8 bytes) precedes it, so the string starts aligned. frame_id must be a
    valid HORUS name (at most 31 UTF-8 bytes, no NUL): NameTooLongError/LayoutError.
    """
    encode_name(frame_id, 'header.frame_id')     # raises for an invalid HORUS name
    text = string_bytes(frame_id)
    return text + bytes(padding(8 + len(text), 4))


class LaserScanCdr:
    """HORUS LaserScan bytes -> CDR of ``sensor_msgs/LaserScan`` with a fixed frame id."""

    horus_type = LaserScan

    def __init__(self, frame_id: str = '') -> None:
        self._prefix = header_tail(frame_id)

    def __call__(self, raw: bytes) -> bytes:
        """
        CDR bytes of ``laser_scan_to_ros(LaserScan.from_bytes(raw), frame_id)``.

        Raises LayoutError for a short buffer and ConversionError for a stamp that does not
        fit builtin_interfaces/Time, as the message path does.
        """
        if len(raw) < LaserScan.SIZE:
            LaserScan.from_bytes(raw)    # raises the message path's LayoutError
        sec, nanosec = stamp_parts(_U64.unpack_from(raw, _STAMP)[0])
        # ROS field order: angle_min, angle_max, angle_increment, time_increment, scan_time,
        # range_min, range_max; then ranges[360] and an empty intensities[].
        return b''.join((ENCAPSULATION, TIME.pack(sec, nanosec), self._prefix,
                         raw[_ANGLES], raw[_TIMING], raw[_RANGE_LIMITS],
                         _RANGE_COUNT, raw[:_RANGES_END], _NO_INTENSITIES))


#: HORUS type name -> CDR encoder class (constructed with the route's frame id).
CDR_ENCODERS: Dict[str, Type[LaserScanCdr]] = {'LaserScan': LaserScanCdr}
