# SPDX-License-Identifier: Apache-2.0
"""
Serialized aimrt_protocols_msgs/JointCommand (CDR) -> AimRT JointCommand body, directly.

The bridge subscribes to its command topics raw (rclpy ``raw=True``): rclpy then hands over
the CDR bytes instead of building a Python message (deserializing one 20-joint JointCommand
into a message object costs more than everything else the bridge does with it).
``read_joint_command`` reads those bytes (ros_wire's CDR rules) and applies the checks of
``aimrt_protocols_py.conversions.joint_command_from_ros``: the same errors for the same
input. ``protobuf_body`` writes the protobuf bytes ``codec.encode`` gives for the converted
message (proto3: fields in number order, zero scalars and empty strings left out);
``test/test_command_cdr.py`` checks both byte for byte against the message-object path.
JSON bodies go through the protobuf message (``joint_command_message``) and codec.
"""
import math
import struct
from typing import Any, Dict, List, NamedTuple, Optional, Tuple

from aimrt_protocols_py import codec
from aimrt_protocols_py.errors import ConversionError
from aimrt_protocols_py.messages import Header, JointCommand, SingleJointCommand
from ros_wire import CdrError, Reader

NS_PER_S = 1_000_000_000
_WHAT = 'aimrt_protocols_msgs/JointCommand.'
_COLUMNS = ('position', 'velocity', 'effort', 'stiffness', 'damping')
_F64 = struct.Struct('<d')
# protobuf tags: SingleJointCommand fields 2..6 (double, wire type 1)
_VALUE_TAGS = (b'\x11', b'\x19', b'\x21', b'\x29', b'\x31')


class JointCommandFields(NamedTuple):
    """A JointCommand read from CDR and checked: the AimRT message's values."""

    time_stamp: int
    frame_id: str
    names: List[str]
    #: position, velocity, effort, stiffness, damping: one value per name each
    columns: Tuple[Tuple[float, ...], ...]
    #: the cached names block (protobuf_body's fast path); None when built by hand
    known: Optional['_Names'] = None
    #: per column: True when no value is 0.0, False when all are +0.0; else None
    mask: Optional[Tuple[bool, ...]] = None


def _f64_seq(reader: Reader) -> Tuple[Tuple[float, ...], bool]:
    """
    Read a float64[]: (values, True when every byte is 0, i.e. every value is +0.0).

    An empty one has no 8-alignment padding (as Fast DDS writes it).
    """
    n = reader.u32()
    if not n:
        return (), True
    reader.align(8)
    start = reader.pos
    if 8 * n > len(reader.data) - start:
        raise CdrError(f'float64 sequence of {n} elements in {len(reader.data)} bytes')
    unpacker = _F64_RUNS.get(n)
    if unpacker is None:
        unpacker = struct.Struct('<%dd' % n)
        if len(_F64_RUNS) < _CACHE_SIZE:
            _F64_RUNS[n] = unpacker
    values = reader.f64s(unpacker)
    return values, not reader.data.count(0, start, reader.pos) < 8 * n


class _Names:
    """The joint names of one CDR string[] block, and what protobuf_body needs of them."""

    __slots__ = ('block', 'names', 'fields', 'packers')

    def __init__(self, block: bytes, names: List[str]) -> None:
        self.block = block
        self.names = names
        self.fields = [_string_field(b'\x0a', name) for name in names]
        # present-columns mask -> (Struct, args template) of every joint at once
        self.packers: Dict[Tuple[bool, ...], Tuple[struct.Struct, List[Any]]] = {}

    def packer(self, mask: Tuple[bool, ...]) -> Tuple[struct.Struct, List[Any]]:
        """
        Struct and argument template writing all joints with the columns in `mask`.

        Per joint: tag 0x12, the joint's length, its name field, then (tag, float64) for
        each present column; the values go into the template's value slots.
        """
        found = self.packers.get(mask)
        if found is None:
            tags = [t[0] for t, present in zip(_VALUE_TAGS, mask) if present]
            fmt = ['<']
            args: List[Any] = []
            for field in self.fields:
                prefix = b'\x12' + _varint(len(field) + 9 * len(tags)) + field
                fmt.append('%ds' % len(prefix) + 'Bd' * len(tags))
                args.append(prefix)
                for tag in tags:
                    args += (tag, 0.0)
            found = struct.Struct(''.join(fmt)), args
            self.packers[mask] = found
        return found


# the names blocks seen last (a robot sends the same names in every command), bounded
_NAMES: List[_Names] = []
_F64_RUNS: Dict[int, struct.Struct] = {}
_CACHE_SIZE = 16


def _read_names(reader: Reader) -> Tuple[List[str], _Names]:
    start = reader.pos
    data = reader.data
    for known in _NAMES:
        if data.startswith(known.block, start):
            reader.pos = start + len(known.block)
            return known.names, known
    names = reader.string_seq()
    known = _Names(bytes(data[start:reader.pos]), names)
    if len(_NAMES) >= _CACHE_SIZE:
        del _NAMES[0]
    _NAMES.append(known)
    return names, known


def read_joint_command(data: bytes) -> JointCommandFields:
    """
    Read and check a serialized JointCommand.

    CdrError for bytes that are not a JointCommand; ConversionError for the values
    conversions.joint_command_from_ros refuses (negative sec, nanosec >= 1e9, an array
    whose length is neither len(name) nor, except position, 0).
    """
    reader = Reader(data)
    sec, nanosec, frame_id = reader.header()
    reader.align(4)
    names, known = _read_names(reader)
    n = len(names)
    columns = []
    # which columns protobuf_body's one-struct path writes, None when it cannot be used
    mask: Optional[List[bool]] = []
    for column in _COLUMNS:
        values, all_default = _f64_seq(reader)
        if mask is not None:
            if all_default:
                mask.append(False)
            elif 0.0 in values:     # a zero left out in some joints and not others
                mask = None
            else:
                mask.append(True)
        if len(values) != n:
            if values or column == 'position':
                raise ConversionError(
                    f'{_WHAT}{column} has {len(values)} values for {n} names (must be '
                    f'{n}{"" if column == "position" else " or empty"})')
            values = (0.0,) * n
        columns.append(values)
    if sec < 0:
        raise ConversionError(f'stamp.sec {sec} < 0 cannot be a uint64 time_stamp')
    if nanosec >= NS_PER_S:
        raise ConversionError(f'stamp.nanosec {nanosec} is not below 1e9')
    return JointCommandFields(sec * NS_PER_S + nanosec, frame_id, names, tuple(columns),
                              known, None if mask is None else tuple(mask))


def _varint(value: int) -> bytes:
    out = bytearray()
    while value > 0x7f:
        out.append((value & 0x7f) | 0x80)
        value >>= 7
    out.append(value)
    return bytes(out)


def _string_field(tag: bytes, text: str) -> bytes:
    """Return a protobuf string field, or nothing for '' (proto3 leaves defaults out)."""
    if not text:
        return b''
    data = text.encode('utf-8')
    return tag + _varint(len(data)) + data


def _is_default(value: float) -> bool:
    """Return True for +0.0, the proto3 default left out of the wire (-0.0 is sent)."""
    return value == 0.0 and math.copysign(1.0, value) > 0


def protobuf_body(fields: JointCommandFields) -> bytes:
    """Return the protobuf bytes of the AimRT JointCommand (codec.encode's, exactly)."""
    header = b''
    if fields.time_stamp:
        header = b'\x08' + _varint(fields.time_stamp)
    header += _string_field(b'\x12', fields.frame_id)
    head = b'\x0a' + _varint(len(header)) + header
    n = len(fields.names)
    if not n:
        return head
    known = fields.known
    if known is None:
        known = _Names(b'', fields.names)
    mask = fields.mask
    if mask is not None:    # the usual command: one struct.pack for every joint
        packer, template = known.packer(mask)
        args = list(template)
        stride = 1 + 2 * sum(mask)
        slot = 2
        for column, present in zip(fields.columns, mask):
            if present:
                args[slot::stride] = column
                slot += 2
        return head + packer.pack(*args)
    out = [head]
    for i, field in enumerate(known.fields):
        joint = [field]
        for tag, column in zip(_VALUE_TAGS, fields.columns):
            value = column[i]
            if not _is_default(value):
                joint += (tag, _F64.pack(value))
        body = b''.join(joint)
        out += (b'\x12', _varint(len(body)), body)
    return b''.join(out)


def joint_command_message(fields: JointCommandFields) -> Any:
    """Return the AimRT JointCommand protobuf message."""
    out = JointCommand(header=Header(time_stamp=fields.time_stamp, frame_id=fields.frame_id))
    out.joints.extend(
        SingleJointCommand(name=name, position=p, velocity=v, effort=e, stiffness=k, damping=d)
        for name, p, v, e, k, d in zip(fields.names, *fields.columns))
    return out


def command_body(data: bytes, serialization: str) -> Tuple[bytes, str]:
    """(body, content type) of the POST for a serialized JointCommand; see read_joint_command."""
    fields = read_joint_command(data)
    if serialization == 'pb':
        return protobuf_body(fields), codec.PROTOBUF_CONTENT_TYPE
    return codec.encode_body(joint_command_message(fields), serialization)


__all__ = ['CdrError', 'command_body', 'joint_command_message', 'JointCommandFields',
           'protobuf_body', 'read_joint_command']
