# SPDX-License-Identifier: Apache-2.0
"""
HB50 messages (hb50_commons) as CDR bytes: encoders, fixed layouts, decoders (500 Hz path).

Built on ros_wire (the workspace's ROS wire format: the encapsulation header, alignment,
the field-by-field Writer/Reader and FixedLayout); this module holds only what is HB50's,
the field order of BridgeData, BridgeState, JointCommand and RobotState. Every byte but the
alignment padding (which Fast DDS leaves uninitialised and ros_wire writes as zeros) equals
rclpy.serialization's, which test/test_cdr.py checks byte for byte for every type here.

Why: rclpy's `publish(msg)` of a BridgeData costs several times `publish(bytes)`, and a raw
subscription hands over the CDR bytes without building the Python message
(benchmarks/README.md has the figures).
"""

from array import array
import struct
from typing import Any, Callable, Generic, Iterable, List, Optional, Sequence, Tuple
from typing import TypeAlias, TypeVar, Union

import numpy.typing as npt

# Writer, Reader, CdrError and f32_bytes are part of this module's API: the encoders take a
# Writer, the decoders raise CdrError, the layouts take f32_bytes arrays.
from ros_wire.cdr import CdrError, f32_bytes, FixedLayout, Reader, Writer

__all__ = ['BridgeDataDecoder', 'CdrError', 'DecodedBridgeData', 'DecodedJointCommand',
           'JointCommandDecoder', 'Reader', 'Writer', 'bridge_data_layout',
           'bridge_state_layout', 'decode_bridge_data', 'decode_joint_command',
           'encode_bridge_data', 'encode_bridge_state', 'encode_joint_command',
           'encode_robot_state', 'f32_bytes', 'joint_command_body', 'joint_command_layout',
           'robot_state_layout']

_F64X3 = struct.Struct('<3d')
_F64X4 = struct.Struct('<4d')
_F64X10 = struct.Struct('<10d')

# A float32[] field's values: an array('f'), a numpy array or floats (Writer.f32_seq).
Floats: TypeAlias = Union['array[float]', npt.NDArray[Any], Sequence[float]]
# A uint16[] field's values: an array('H'), a numpy array or ints (Writer.u16_seq).
U16s: TypeAlias = Union['array[int]', npt.NDArray[Any], Sequence[int]]
# One RobotState leg: (leg_name, contact, foot_pos_body, foot_vel, foot_force_est)
Leg: TypeAlias = Tuple[str, bool, Sequence[float], Sequence[float], Sequence[float]]
# The shape keys the decoders learn: (frame_id, source_node, names) and (frame_id, names).
CommandShape: TypeAlias = Tuple[str, str, Tuple[str, ...]]
DataShape: TypeAlias = Tuple[str, Tuple[str, ...]]
K = TypeVar('K', CommandShape, DataShape)


# --- message encoders (field order = the .msg files) ----------------------------------------

def encode_bridge_data(w: Writer, sec: int, nanosec: int, frame_id: str,
                       orientation: Sequence[float], angular_velocity: Sequence[float],
                       linear_acceleration: Sequence[float], joint_name: Sequence[str],
                       position: Floats, velocity: Floats, effort: Floats,
                       temperature: Iterable[int], status: U16s) -> Writer:
    """hb50_commons/msg/BridgeData; orientation is (x, y, z, w)."""
    w.header(sec, nanosec, frame_id)
    w.f64s(_F64X10, (*orientation, *angular_velocity, *linear_acceleration))
    w.string_seq(joint_name)
    w.f32_seq(position)
    w.f32_seq(velocity)
    w.f32_seq(effort)
    w.u8_seq(temperature)
    w.u16_seq(status)
    return w


def encode_bridge_state(w: Writer, floats: Iterable[float], drives_enabled: bool,
                        status: Sequence[str], up_time: int) -> Writer:
    """hb50_commons/msg/BridgeState; `floats` = battery, bus_v ... ext2_t (10 values)."""
    w.f32s(floats)
    w.boolean(drives_enabled)
    w.string_seq(status)
    w.i32(up_time)
    return w


def encode_joint_command(w: Writer, sec: int, nanosec: int, frame_id: str, source_node: str,
                         name: Sequence[str], kp: Floats, ki: Floats, kd: Floats,
                         t_pos: Floats, t_vel: Floats, t_trq: Floats,
                         brake: Sequence[bool]) -> Writer:
    """hb50_commons/msg/JointCommand."""
    w.header(sec, nanosec, frame_id)
    w.string(source_node)
    w.string_seq(name)
    for values in (kp, ki, kd, t_pos, t_vel, t_trq):
        w.f32_seq(values)
    w.bool_seq(brake)
    return w


def encode_robot_state(w: Writer, sec: int, nanosec: int, frame_id: str, legs: Sequence[Leg],
                       position: Sequence[float], orientation: Sequence[float],
                       body_lin: Sequence[float], body_ang: Sequence[float],
                       world_lin: Sequence[float], world_ang: Sequence[float],
                       motion_mode: int, motion_type: int, motion_gait: int) -> Writer:
    """
    hb50_commons/msg/RobotState.

    `legs` = [(leg_name, contact, foot_pos_body, foot_vel, foot_force_est)], each vector 3
    floats; orientation (x, y, z, w); the motion_* fields are ints 0..255 (`byte`).
    """
    w.header(sec, nanosec, frame_id)
    w.u32(len(legs))
    for name, contact, pos, vel, force in legs:
        w.string(name)
        w.boolean(contact)
        w.f64s(_F64X3, pos)
        w.f64s(_F64X3, vel)
        w.f64s(_F64X3, force)
    w.f64s(_F64X3, position)
    w.f64s(_F64X4, orientation)
    w.f64s(_F64X3, body_lin)
    w.f64s(_F64X3, body_ang)
    w.f64s(_F64X3, world_lin)
    w.f64s(_F64X3, world_ang)
    w.u8(motion_mode)
    w.u8(motion_type)
    w.u8(motion_gait)
    return w


# --- fixed layouts: one struct.pack per message --------------------------------------------

def bridge_data_layout(frame_id: str, joint_names: Sequence[str]) -> FixedLayout:
    """
    Compile the layout of a BridgeData with this frame_id and these joint names.

    pack(sec, nanosec, qx, qy, qz, qw, gx, gy, gz, ax, ay, az, position, velocity, effort,
    temperature, status): the five arrays as bytes of len(joint_names) elements (float32
    f32_bytes, uint8, uint16 little endian).
    """
    n = len(joint_names)
    return (FixedLayout().header(frame_id).var('d', 10).string_seq(joint_names)
            .u32(n).var_array('f', n).u32(n).var_array('f', n).u32(n).var_array('f', n)
            .u32(n).var_array('B', n).u32(n).var_array('H', n).build())


# --- message decoders -----------------------------------------------------------------------

class DecodedJointCommand:
    """The fields of a JointCommand as rclpy would deserialize them (arrays as array('f'))."""

    __slots__ = ('sec', 'nanosec', 'frame_id', 'source_node', 'name', 'kp', 'ki', 'kd',
                 't_pos', 't_vel', 't_trq', 'brake')

    sec: int
    nanosec: int
    frame_id: str
    source_node: str
    name: List[str]
    kp: 'array[float]'
    ki: 'array[float]'
    kd: 'array[float]'
    t_pos: 'array[float]'
    t_vel: 'array[float]'
    t_trq: 'array[float]'
    brake: List[bool]


class DecodedBridgeData:
    """The fields of a BridgeData; orientation (x, y, z, w) and the vectors as tuples."""

    __slots__ = ('sec', 'nanosec', 'frame_id', 'orientation', 'angular_velocity',
                 'linear_acceleration', 'joint_name', 'joint_position', 'joint_velocity',
                 'joint_effort', 'joint_temperature', 'joint_status')

    sec: int
    nanosec: int
    frame_id: str
    orientation: Tuple[float, ...]
    angular_velocity: Tuple[float, ...]
    linear_acceleration: Tuple[float, ...]
    joint_name: List[str]
    joint_position: 'array[float]'
    joint_velocity: 'array[float]'
    joint_effort: 'array[float]'
    joint_temperature: 'array[int]'
    joint_status: 'array[int]'


def decode_joint_command(data: bytes) -> DecodedJointCommand:
    """Decode a serialized JointCommand; raises CdrError when `data` is not one."""
    r = Reader(data)
    m = DecodedJointCommand()
    m.sec, m.nanosec, m.frame_id = r.header()
    m.source_node = r.string()
    m.name = r.string_seq()
    m.kp = r.f32_seq()
    m.ki = r.f32_seq()
    m.kd = r.f32_seq()
    m.t_pos = r.f32_seq()
    m.t_vel = r.f32_seq()
    m.t_trq = r.f32_seq()
    m.brake = r.bool_seq()
    return m


def joint_command_body(data: bytes) -> bytes:
    """
    Return the part of a serialized JointCommand after its header (source_node ... brake).

    It starts at the 4-aligned offset after the header (where source_node's length is), so two
    commands with equal bodies decode to equal fields whatever their headers: bridge_node
    reuses the last validation for an equal body.
    """
    r = Reader(data)
    r.header()
    r.align(4)
    return data[r.pos:]


def decode_bridge_data(data: bytes) -> DecodedBridgeData:
    """Decode a serialized BridgeData; raises CdrError when `data` is not one."""
    r = Reader(data)
    m = DecodedBridgeData()
    m.sec, m.nanosec, m.frame_id = r.header()
    values = r.f64s(_F64X10)
    m.orientation = values[0:4]
    m.angular_velocity = values[4:7]
    m.linear_acceleration = values[7:10]
    m.joint_name = r.string_seq()
    m.joint_position = r.f32_seq()
    m.joint_velocity = r.f32_seq()
    m.joint_effort = r.f32_seq()
    m.joint_temperature = r.u8_seq()
    m.joint_status = r.u16_seq()
    return m


def joint_command_layout(frame_id: str, source_node: str,
                         names: Sequence[str]) -> FixedLayout:
    """
    Compile the layout of a JointCommand from one source with these joint names.

    pack(sec, nanosec, kp, ki, kd, t_pos, t_vel, t_trq, brake): the six gains/targets as
    float32 bytes of len(names) elements (f32_bytes), brake as len(names) bytes 0/1.
    """
    n = len(names)
    lay = FixedLayout().header(frame_id).string(source_node).string_seq(names)
    for _ in range(6):
        lay.u32(n).var_array('f', n)
    return lay.u32(n).var_array('?', n).build()


def robot_state_layout(frame_id: str, leg_names: Sequence[str]) -> FixedLayout:
    """
    Compile the layout of a RobotState with these legs.

    pack(sec, nanosec, then per leg: contact, 9 floats (foot_pos_body, foot_vel,
    foot_force_est), then 19 floats (pose position, orientation x y z w, body_vel linear,
    angular, world_vel linear, angular), motion_mode, motion_type, motion_gait (ints)).
    """
    lay = FixedLayout().header(frame_id).u32(len(leg_names))
    for name in leg_names:
        lay.string(name).var('?').var('d', 9)
    return lay.var('d', 19).var('B', 3).build()


def bridge_state_layout(status: Sequence[str]) -> FixedLayout:
    """
    Compile the layout of a BridgeState with these status strings.

    pack(floats, drives_enabled, up_time): floats = f32_bytes of (battery, bus_v, bus_i,
    bus_p, bus_pt, legs_v, charger_v, bridge_t, ext1_t, ext2_t), so each is the C cast.
    """
    return FixedLayout().var_array('f', 10).var('?').string_seq(status).var('i').build()


class _LayoutCache(Generic[K]):
    """The few most recent fixed layouts seen, tried before the field-by-field decoder."""

    def __init__(self, size: int) -> None:
        self._size = size
        self._entries: List[Tuple[K, FixedLayout]] = []     # most recent first

    def find(self, data: bytes) -> Tuple[Optional[K], Any]:
        """Return (key, the values unpacked) of the first layout that fits, or (None, None)."""
        for key, layout in self._entries:
            values = layout.unpack(data)
            if values is not None:
                return key, values
        return None, None

    def add(self, key: K, make: Callable[[], FixedLayout]) -> None:
        if all(k != key for k, _ in self._entries):
            self._entries.insert(0, (key, make()))
            del self._entries[self._size:]


class JointCommandDecoder:
    """
    decode_joint_command, fast for the shapes learnt.

    A shape is (frame_id, source_node, names) with every array as long as `names`; after
    learn(msg), a command of that shape is read with one struct.unpack. The result is the same
    as decode_joint_command's (the constant parts match byte for byte).
    """

    def __init__(self, max_shapes: int = 4) -> None:
        self._cache: _LayoutCache[CommandShape] = _LayoutCache(max_shapes)

    def decode(self, data: bytes) -> DecodedJointCommand:
        key, values = self._cache.find(data)
        if key is None:
            return decode_joint_command(data)
        m = DecodedJointCommand()
        m.frame_id, m.source_node, names = key
        m.name = list(names)
        m.sec, m.nanosec = values[0], values[1]
        m.kp, m.ki, m.kd, m.t_pos, m.t_vel, m.t_trq = (array('f', b) for b in values[2:8])
        m.brake = [b != 0 for b in values[8]]
        return m

    def learn(self, msg: DecodedJointCommand) -> None:
        """Compile the shape of a decoded command (bridge_node: one that passed validation)."""
        n = len(msg.name)
        fields = ('kp', 'ki', 'kd', 't_pos', 't_vel', 't_trq', 'brake')
        if all(len(getattr(msg, f)) == n for f in fields):
            key: CommandShape = (msg.frame_id, msg.source_node, tuple(msg.name))
            self._cache.add(key, lambda: joint_command_layout(*key))


class BridgeDataDecoder:
    """decode_bridge_data, fast (one struct.unpack) for the (frame_id, joint names) learnt."""

    def __init__(self, max_shapes: int = 2) -> None:
        self._cache: _LayoutCache[DataShape] = _LayoutCache(max_shapes)

    def decode(self, data: bytes) -> DecodedBridgeData:
        key, values = self._cache.find(data)
        if key is None:
            return decode_bridge_data(data)
        m = DecodedBridgeData()
        m.frame_id, names = key
        m.joint_name = list(names)
        m.sec, m.nanosec = values[0], values[1]
        m.orientation = tuple(values[2:6])
        m.angular_velocity = tuple(values[6:9])
        m.linear_acceleration = tuple(values[9:12])
        m.joint_position, m.joint_velocity, m.joint_effort = (array('f', b)
                                                              for b in values[12:15])
        m.joint_temperature = array('B', values[15])
        m.joint_status = array('H', values[16])
        return m

    def learn(self, msg: DecodedBridgeData) -> None:
        n = len(msg.joint_name)
        if all(len(getattr(msg, f)) == n for f in ('joint_position', 'joint_velocity',
                                                   'joint_effort', 'joint_temperature',
                                                   'joint_status')):
            key: DataShape = (msg.frame_id, tuple(msg.joint_name))
            self._cache.add(key, lambda: bridge_data_layout(*key))
