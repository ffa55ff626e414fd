# SPDX-License-Identifier: Apache-2.0
"""
The ROS 2 wire format: CDR (XCDR1, little endian) as rmw_fastrtps_cpp and Cyclone DDS write it.

A 4-byte encapsulation header `00 01 00 00` (CDR_LE, options 0), then the fields in
declaration order, each primitive aligned to its own size (1, 2, 4, 8) counted from the end
of that header; a string is a uint32 byte count including the terminating NUL, the UTF-8
bytes and the NUL; a sequence is a uint32 element count and the elements; nested messages
are inlined. No trailing padding.

rclpy's behaviour is mirrored: a str is encoded as UTF-8 and cut at its first NUL (the C
string stops there); on decoding, a string stops at its first NUL and invalid UTF-8 becomes
U+FFFD ('replace'); a float32 array element is the C cast of the Python float (1e39 -> inf).

Fast DDS leaves alignment padding bytes uninitialised; everything here writes zeros there
and can list the padding offsets, so tests compare every other byte with rclpy's
(ros_wire.testing).
"""

from array import array
import struct
from typing import Any, Iterable, List, Optional, Sequence, Tuple, Union

#: The encapsulation header: CDR_LE, options 0.
ENCAPSULATION = b'\x00\x01\x00\x00'
#: Length of the encapsulation header; alignment counts from its end.
HEADER_SIZE = len(ENCAPSULATION)

#: Bytes-like values accepted as a packed array.
Buffer = Union[bytes, bytearray, memoryview]

#: uint32, little endian (sequence and string lengths).
U32 = struct.Struct('<I')
#: builtin_interfaces/Time (int32 sec, uint32 nanosec), little endian.
TIME = struct.Struct('<iI')
_U32 = U32
_I32 = struct.Struct('<i')
_TIME = TIME
# struct codes of the CDR primitives (bool, octet/uint8, int8, int16 ... float64).
_PRIMITIVES = frozenset('?bBhHiIqQfd')


class CdrError(ValueError):
    """Bytes that are not a valid CDR encoding of the expected message type."""


def padding(offset: int, size: int) -> int:
    """
    Return the number of padding bytes before a `size`-aligned field at `offset`.

    `offset` counts from the end of the encapsulation header, as CDR aligns.
    """
    return -offset % size


def is_cdr_le(data: Buffer) -> bool:
    """Return True when `data` starts with the little-endian CDR encapsulation header."""
    return len(data) >= HEADER_SIZE and bytes(data[0:2]) == ENCAPSULATION[0:2]


def utf8(text: str) -> bytes:
    """Return the bytes rclpy sends for a str: UTF-8, cut at the first NUL."""
    data = text.encode('utf-8')
    nul = data.find(b'\x00')
    return data if nul < 0 else data[:nul]


def string_bytes(text: str) -> bytes:
    """Return a CDR string without its leading alignment: length (with NUL), bytes, NUL."""
    data = utf8(text)
    return _U32.pack(len(data) + 1) + data + b'\x00'


def f32_bytes(values: Any) -> bytes:
    """
    Little-endian float32 bytes of a numpy array or of a sequence of floats.

    Each element is the C cast of the float (round to nearest, out of range -> inf), as
    rclpy stores a float32[] element.
    """
    if hasattr(values, 'dtype'):
        return bytes(values.astype('<f4').tobytes())
    return array('f', values).tobytes()


def _primitive_size(code: str) -> int:
    if len(code) != 1 or code not in _PRIMITIVES:
        raise ValueError(f'{code!r} is not the struct code of a CDR primitive '
                         f'(one of {"".join(sorted(_PRIMITIVES))})')
    return struct.calcsize('<' + code)


class Writer:
    """Appends CDR fields to a bytearray that starts with the encapsulation header."""

    __slots__ = ('buf', 'padding')

    def __init__(self, track_padding: bool = False) -> None:
        self.buf = bytearray(ENCAPSULATION)
        #: Offsets of the padding bytes written (with track_padding), else None.
        self.padding: Optional[List[int]] = [] if track_padding else None

    def align(self, size: int) -> None:
        """Append zero bytes up to the next multiple of `size` (from the header's end)."""
        buf = self.buf
        fill = padding(len(buf) - HEADER_SIZE, size)
        if fill:
            if self.padding is not None:
                self.padding.extend(range(len(buf), len(buf) + fill))
            buf += bytes(fill)

    def u8(self, value: int) -> None:
        """Append a uint8 / byte / char."""
        self.buf.append(value)

    def boolean(self, value: object) -> None:
        """Append a bool (1 byte, 0 or 1)."""
        self.buf.append(1 if value else 0)

    def u32(self, value: int) -> None:
        """Append a uint32."""
        self.align(4)
        self.buf += _U32.pack(value)

    def i32(self, value: int) -> None:
        """Append an int32."""
        self.align(4)
        self.buf += _I32.pack(value)

    def time(self, sec: int, nanosec: int) -> None:
        """Append a builtin_interfaces/Time."""
        self.align(4)
        self.buf += _TIME.pack(sec, nanosec)

    def f64s(self, packer: struct.Struct, values: Sequence[float]) -> None:
        """Append a run of float64 fields (a Vector3, a Quaternion) packed by `packer`."""
        self.align(8)
        self.buf += packer.pack(*values)

    def f32s(self, values: Iterable[float]) -> None:
        """Append a run of float32 fields, each the C cast of the Python float."""
        self.align(4)
        self.buf += array('f', values).tobytes()

    def string(self, text: str) -> None:
        """Append a str as a CDR string: UTF-8, cut at the first NUL."""
        self.align(4)
        self.buf += string_bytes(text)

    def string_seq(self, texts: Sequence[str]) -> None:
        """Append a string[] sequence."""
        self.u32(len(texts))
        for text in texts:
            self.string(text)

    def f32_seq(self, values: Any) -> None:
        """
        Append a float32[] sequence: an array('f') (copied as is), a numpy array or floats.

        A numpy array is cast like rclpy casts a Python float (C cast, round to nearest).
        """
        self.u32(len(values))
        if isinstance(values, array) and values.typecode == 'f':
            self.buf += values.tobytes()
        else:
            self.buf += f32_bytes(values)

    def f64_seq(self, values: Sequence[float]) -> None:
        """Append a float64[] sequence (an empty one without the 8-alignment padding)."""
        self.u32(len(values))
        if len(values):
            self.align(8)
            self.buf += struct.pack(f'<{len(values)}d', *values)

    def u8_seq(self, values: Iterable[int]) -> None:
        """Append a uint8[] sequence."""
        data = bytes(values)
        self.u32(len(data))
        self.buf += data

    def u16_seq(self, values: Any) -> None:
        """Append a uint16[] sequence: an array('H'), a numpy array or ints."""
        self.u32(len(values))
        if isinstance(values, array) and values.typecode == 'H':
            self.buf += values.tobytes()
        elif hasattr(values, 'dtype'):
            self.buf += values.astype('<u2').tobytes()
        else:
            self.buf += array('H', values).tobytes()

    def bool_seq(self, values: Sequence[object]) -> None:
        """Append a bool[] sequence."""
        self.u32(len(values))
        self.buf += bytes(1 if v else 0 for v in values)

    def header(self, sec: int, nanosec: int, frame_id: str) -> None:
        """Append a std_msgs/Header."""
        self.time(sec, nanosec)
        self.string(frame_id)

    def getvalue(self) -> bytes:
        """Return the message bytes written so far."""
        return bytes(self.buf)


class Reader:
    """Reads CDR fields from bytes that start with the CDR_LE encapsulation header."""

    __slots__ = ('data', 'pos')

    def __init__(self, data: bytes) -> None:
        if not is_cdr_le(data):
            raise CdrError('not little-endian CDR (encapsulation header)')
        self.data = data
        self.pos = HEADER_SIZE

    def align(self, size: int) -> None:
        """Skip the padding before a `size`-aligned field."""
        self.pos += padding(self.pos - HEADER_SIZE, size)

    def _take(self, n: int) -> int:
        start = self.pos
        end = start + n
        if n < 0 or end > len(self.data):
            raise CdrError(f'message ends at {len(self.data)} bytes, {end} needed')
        self.pos = end
        return start

    def u8(self) -> int:
        """Read a uint8."""
        return self.data[self._take(1)]

    def boolean(self) -> bool:
        """Read a bool: any byte but 0 is True (as deserialize_message reads a bool[])."""
        return self.data[self._take(1)] != 0

    def u32(self) -> int:
        """Read a uint32."""
        self.align(4)
        value: int = _U32.unpack_from(self.data, self._take(4))[0]
        return value

    def i32(self) -> int:
        """Read an int32."""
        self.align(4)
        value: int = _I32.unpack_from(self.data, self._take(4))[0]
        return value

    def time(self) -> Tuple[int, int]:
        """Read a builtin_interfaces/Time as (sec, nanosec)."""
        self.align(4)
        sec, nanosec = _TIME.unpack_from(self.data, self._take(8))
        return sec, nanosec

    def f64s(self, unpacker: struct.Struct) -> Tuple[float, ...]:
        """Read a run of float64 fields unpacked by `unpacker`."""
        self.align(8)
        return unpacker.unpack_from(self.data, self._take(unpacker.size))

    def string(self) -> str:
        """Read a CDR string: up to its first NUL, invalid UTF-8 replaced."""
        n = self.u32()
        if n == 0:
            raise CdrError('string without its terminating NUL')
        start = self._take(n)
        raw = self.data[start:start + n - 1]
        nul = raw.find(b'\x00')
        if nul >= 0:
            raw = raw[:nul]
        return raw.decode('utf-8', 'replace')

    def string_seq(self) -> List[str]:
        """Read a string[] sequence."""
        n = self.u32()
        if n > len(self.data) - self.pos:      # each element takes >= 4 bytes
            raise CdrError(f'string sequence of {n} elements in {len(self.data)} bytes')
        return [self.string() for _ in range(n)]

    def _seq(self, typecode: str) -> 'array[Any]':
        n = self.u32()
        size = struct.calcsize(typecode)
        if size > 1:
            self.align(size)
        start = self._take(n * size)
        return array(typecode, self.data[start:start + n * size])

    def f32_seq(self) -> 'array[float]':
        """Read a float32[] sequence."""
        return self._seq('f')

    def u8_seq(self) -> 'array[int]':
        """Read a uint8[] sequence."""
        return self._seq('B')

    def u16_seq(self) -> 'array[int]':
        """Read a uint16[] sequence."""
        return self._seq('H')

    def bool_seq(self) -> List[bool]:
        """Read a bool[] sequence."""
        n = self.u32()
        start = self._take(n)
        return [b != 0 for b in self.data[start:start + n]]

    def header(self) -> Tuple[int, int, str]:
        """Read a std_msgs/Header as (sec, nanosec, frame_id)."""
        sec, nanosec = self.time()
        return sec, nanosec, self.string()


class FixedLayout:
    """
    A message whose strings and sequence lengths are fixed, compiled to one struct.Struct.

    Declare the fields in wire order (constant strings and lengths, variable primitives and
    packed arrays; each element's size and alignment come from its struct code), then
    `build()`: the layout is frozen and `pack(*values)` fills the variable fields in the
    order they were declared and returns the CDR bytes, several times cheaper than the
    field-by-field Writer. Values of the wrong count, or arrays of the wrong length, are
    refused (ValueError); a value out of its field's range raises struct.error.
    """

    def __init__(self) -> None:
        self._fmt = ['<']
        self._pos = 0                   # offset after the encapsulation header
        self._args: List[Optional[bytes]] = []   # constants, None where a variable goes
        self._slots: List[int] = []     # indices of the variable arguments in _args
        self._arrays: List[Tuple[int, int, int]] = []  # (value index, slot, nbytes)
        self._padding: List[int] = []
        self._struct: Optional[struct.Struct] = None
        self._consts: Tuple[Tuple[int, bytes], ...] = ()
        #: Length of the packed message (header included), set by build().
        self.size = 0

    @property
    def padding(self) -> Tuple[int, ...]:
        """Offsets (from the message start) of the padding bytes, which pack writes as 0."""
        return tuple(self._padding)

    def _declare(self) -> None:
        if self._struct is not None:
            raise RuntimeError('FixedLayout is frozen after build(); declare fields before')

    def _align(self, size: int) -> None:
        fill = padding(self._pos, size)
        if fill:
            self._fmt.append(f'{fill}x')
            start = HEADER_SIZE + self._pos
            self._padding.extend(range(start, start + fill))
            self._pos += fill

    def _const(self, data: bytes, align: int) -> 'FixedLayout':
        self._declare()
        self._align(align)
        self._fmt.append(f'{len(data)}s')
        self._args.append(bytes(data))
        self._pos += len(data)
        return self

    def u32(self, value: int) -> 'FixedLayout':
        """Declare a constant uint32 (a sequence length)."""
        return self._const(_U32.pack(value), 4)

    def const_array(self, code: str, values: Sequence[Any]) -> 'FixedLayout':
        """Declare constant elements of struct `code` (without their sequence length)."""
        size = _primitive_size(code)
        return self._const(struct.pack(f'<{len(values)}{code}', *values), size)

    def string(self, text: str) -> 'FixedLayout':
        """Declare a constant string."""
        return self._const(string_bytes(text), 4)

    def string_seq(self, texts: Sequence[str]) -> 'FixedLayout':
        """Declare a constant string[] sequence (its length and strings)."""
        self.u32(len(texts))
        for text in texts:
            self.string(text)
        return self

    def var(self, code: str, count: int = 1) -> 'FixedLayout':
        """Declare `count` variable primitives of struct `code` (one pack value each)."""
        self._declare()
        size = _primitive_size(code)
        self._align(size)
        self._fmt.append(f'{count}{code}')
        for _ in range(count):
            self._slots.append(len(self._args))
            self._args.append(None)
        self._pos += size * count
        return self

    def var_array(self, code: str, count: int) -> 'FixedLayout':
        """
        Declare `count` elements of struct `code` passed as one bytes value (packed array).

        pack() refuses bytes that are not exactly `count` elements long.
        """
        self._declare()
        size = _primitive_size(code)
        self._align(size)
        nbytes = size * count
        self._fmt.append(f'{nbytes}s')
        self._arrays.append((len(self._slots), len(self._args), nbytes))
        self._slots.append(len(self._args))
        self._args.append(None)
        self._pos += nbytes
        return self

    def header(self, frame_id: str) -> 'FixedLayout':
        """Declare a std_msgs/Header: variable stamp (sec, nanosec), constant frame_id."""
        return self.var('i').var('I').string(frame_id)

    def build(self) -> 'FixedLayout':
        """Compile the declared fields; the layout is frozen afterwards."""
        self._declare()
        self._struct = struct.Struct(''.join(self._fmt))
        self._consts = tuple((i, c) for i, c in enumerate(self._args) if c is not None)
        self.size = HEADER_SIZE + self._struct.size
        return self

    def _compiled(self) -> struct.Struct:
        if self._struct is None:
            raise RuntimeError('FixedLayout used before build()')
        return self._struct

    def unpack(self, data: bytes) -> Optional[List[Any]]:
        """
        Return the variable values of `data` if it has exactly this layout, else None.

        Exactly: the same length and every constant part (strings, sequence lengths) byte
        for byte equal; the padding bytes are not read. Arrays come back as bytes.
        """
        compiled = self._compiled()
        if len(data) != self.size or not is_cdr_le(data):
            return None
        values = compiled.unpack_from(data, HEADER_SIZE)
        for i, const in self._consts:
            if values[i] != const:
                return None
        return [values[i] for i in self._slots]

    def pack(self, *values: Any) -> bytes:
        """Return the CDR bytes with these variable values, in declaration order."""
        compiled = self._compiled()
        if len(values) != len(self._slots):
            raise ValueError(f'{len(self._slots)} values expected, not {len(values)}')
        args: List[Any] = list(self._args)
        for slot, value in zip(self._slots, values):
            args[slot] = value
        for index, slot, nbytes in self._arrays:
            if len(args[slot]) != nbytes:
                raise ValueError(f'value {index}: an array of {nbytes} bytes expected, '
                                 f'not {len(args[slot])}')
        return ENCAPSULATION + compiled.pack(*args)
