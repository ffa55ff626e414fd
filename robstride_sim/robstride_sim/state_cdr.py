# SPDX-License-Identifier: Apache-2.0
"""
The node's two per-cycle messages as CDR bytes, for `Publisher.publish(bytes)`.

rclpy publishes pre-serialized bytes several times cheaper than a message object, and
filling a RobstrideState and a JointState field by field (type-checked setters) costs more
again. Per node the joints are fixed (names, CAN ids, count), so both messages have a fixed
layout: `ros_wire.FixedLayout` (the workspace's compiler of fixed-layout messages to one
`struct.Struct`) bakes in the constant parts and packs the rest with one call.

The bytes equal `rclpy.serialization.serialize_message` of the same message at every offset
but the alignment padding, which Fast DDS leaves uninitialised and FixedLayout writes as
zeros (test/test_state_cdr.py checks both messages byte for byte and round trip). The stamp
is the node clock's time split as `Time.to_msg()` splits it; values that do not fit their
field (an int32 run_state beyond 2**31, ...) raise struct.error where rclpy raises too.
"""
from typing import Sequence

from ros_wire import FixedLayout


def robstride_state_layout(can_ids: Sequence[int]) -> FixedLayout:
    """
    Compile robstride_interfaces/RobstrideState for these CAN ids (constant frame_id '').

    pack(sec, nanosec, comm_state, *enabled, *run_state, *fault_bits): one value per joint
    for each array, in joint order.
    """
    n = len(can_ids)
    return (FixedLayout().header('').var('i')
            .u32(n).const_array('i', can_ids)
            .u32(n).var('?', n)
            .u32(n).var('i', n)
            .u32(n).var('I', n)
            .build())


def joint_state_layout(names: Sequence[str]) -> FixedLayout:
    """
    Compile sensor_msgs/JointState for these joint names (constant frame_id '').

    pack(sec, nanosec, *position, *velocity, *effort): one float per joint for each.
    """
    n = len(names)
    lay = FixedLayout().header('').string_seq(names)
    for _ in range(3):
        lay.u32(n).var('d', n)
    return lay.build()


class StateEncoder:
    """The CDR bytes of one cycle's RobstrideState and JointState for fixed joints."""

    def __init__(self, can_ids: Sequence[int], names: Sequence[str]) -> None:
        self.state = robstride_state_layout(can_ids)
        self.joint_state = joint_state_layout(names)

    def encode_state(self, sec: int, nanosec: int, comm_state: int, enabled: Sequence[bool],
                     run_state: Sequence[int], fault_bits: Sequence[int]) -> bytes:
        """Return the RobstrideState bytes (arrays in joint order)."""
        return self.state.pack(sec, nanosec, comm_state, *enabled, *run_state, *fault_bits)

    def encode_joint_state(self, sec: int, nanosec: int, position: Sequence[float],
                           velocity: Sequence[float], effort: Sequence[float]) -> bytes:
        """Return the JointState bytes (arrays in joint order, joint side)."""
        return self.joint_state.pack(sec, nanosec, *position, *velocity, *effort)
