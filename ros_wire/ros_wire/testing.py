# SPDX-License-Identifier: Apache-2.0
"""
Byte checks of hand-made CDR against rclpy's own serialization, for tests.

Fast DDS leaves alignment padding uninitialised (the same message serialised twice gives
different padding bytes), so a comparison masks the padding offsets the encoder reports and
requires zeros there in our bytes. rclpy is imported on the first call only, so importing
this module (and ros_wire) needs no ROS installation.
"""

import struct
from typing import Any, Iterable, List, Optional, Sequence


def assert_same_wire(ours: bytes, padding: Iterable[int], msg: Any,
                     size: Optional[int] = None) -> Any:
    """
    Assert `ours` equals rclpy's serialization of `msg` except at `padding` offsets.

    Our padding bytes must be zero, and each run of padding is an alignment gap (1-7
    bytes); `size`, when given, is the length both must have (a fixed layout's). Returns
    rclpy's reading of `ours` as a message of `msg`'s type.
    """
    from rclpy.serialization import deserialize_message, serialize_message
    theirs = serialize_message(msg)
    assert len(ours) == len(theirs), (len(ours), len(theirs))
    assert size is None or len(ours) == size, (len(ours), size)
    pad = set(padding)
    assert all(ours[i] == 0 for i in pad)
    assert all(1 <= k <= 7 for k in padding_runs(sorted(pad)))
    for i, (a, b) in enumerate(zip(ours, theirs)):
        if i not in pad:
            assert a == b, f'byte {i}: {a:#04x} != {b:#04x}'
    return deserialize_message(ours, type(msg))


def same_f64(a: Sequence[float], b: Sequence[float]) -> bool:
    """Return True when two float sequences are equal as float64 bit patterns (NaN too)."""
    return struct.pack(f'<{len(a)}d', *a) == struct.pack(f'<{len(b)}d', *b)


def padding_runs(offsets: Iterable[int]) -> List[int]:
    """Return the lengths of the runs of consecutive offsets (sorted input)."""
    runs: List[int] = []
    last: Optional[int] = None
    for i in offsets:
        if last is not None and i == last + 1:
            runs[-1] += 1
        else:
            runs.append(1)
        last = i
    return runs
