# SPDX-License-Identifier: Apache-2.0
"""
CDR (XCDR1, little endian) encoder and decoder for the hb50_commons messages on the 500 Hz path.

What rclpy.serialization produces here (rmw_fastrtps_cpp, Fast DDS 2.14 / 3.2): a 4-byte
encapsulation header `00 01 00 00` (CDR_LE), then the fields in declaration order, each
primitive aligned to its own size (1, 2, 4, 8) counted from the end of that header; a string
is a uint32 byte count including the terminating NUL, the UTF-8 bytes and the NUL; a sequence
is a uint32 element count and the elements; nested messages are inlined. No trailing padding.
rclpy's own behaviour is mirrored: a str is encoded as UTF-8 and cut at its first NUL (the C
string stops there); on decoding, a string stops at its first NUL and invalid UTF-8 becomes
U+FFFD ('replace'); a float32 is the C cast of the Python float (so 1e39 -> inf).

One difference that is not a difference on the wire: Fast DDS leaves alignment padding
bytes uninitialised (measured: the same message serialised twice gives different padding
bytes); this encoder writes zeros there. Every other byte is equal to rclpy's, which the tests
check byte by byte for every message type encoded here (`Writer(track_padding=True)` lists
the padding offsets).

Why: rclpy's `publish(msg)` of a BridgeData costs ~9-19 us on this machine (Python message
-> C struct -> CDR) and `publish(bytes)` ~1.5 us; a raw subscription hands over the CDR bytes
without building the Python message (deserialize_message of a JointCommand: ~28 us).
"""

from array import array
import struct

ENCAPSULATION = b'\x00\x01\x00\x00'     # CDR_LE, options 0
_HEADER = len(ENCAPSULATION)

_U32 = struct.Struct('<I')
_TIME = struct.Struct('<iI')
_F64X3 = struct.Struct('<3d')
_F64X4 = struct.Struct('<4d')
_F64X10 = struct.Struct('<10d')
_I32 = struct.Struct('<i')


class CdrError(ValueError):
    """Bytes that are not a valid CDR encoding of the expected message type."""


def _utf8(text):
    """Return the bytes rclpy sends for a str: UTF-8, cut at the first NUL."""
    data = text.encode('utf-8')
    nul = data.find(b'\x00')
    return data if nul < 0 else data[:nul]


def _bool(byte):
    """Read a bool byte: any but 0 is True (as deserialize_message reads a bool[] here)."""
    return byte != 0


class Writer:
    """Appends CDR fields to a bytearray that starts with the encapsulation header."""

    __slots__ = ('buf', 'padding')

    def __init__(self, track_padding=False):
        self.buf = bytearray(ENCAPSULATION)
        self.padding = [] if track_padding else None

    def align(self, size):
        buf = self.buf
        rem = (len(buf) - _HEADER) % size
        if rem:
            fill = size - rem
            if self.padding is not None:
                self.padding.extend(range(len(buf), len(buf) + fill))
            buf += bytes(fill)

    def u8(self, value):
        self.buf.append(value)

    def boolean(self, value):
        self.buf.append(1 if value else 0)

    def u32(self, value):
        self.align(4)
        self.buf += _U32.pack(value)

    def i32(self, value):
        self.align(4)
        self.buf += _I32.pack(value)

    def time(self, sec, nanosec):
        self.align(4)
        self.buf += _TIME.pack(sec, nanosec)

    def f64s(self, packer, values):
        """Append a run of float64 fields (a Vector3, a Quaternion) packed by `packer`."""
        self.align(8)
        self.buf += packer.pack(*values)

    def f32s(self, values):
        """Append a run of float32 fields, each the C cast of the Python float."""
        self.align(4)
        self.buf += array('f', values).tobytes()

    def string(self, text):
        data = _utf8(text)
        self.align(4)
        self.buf += _U32.pack(len(data) + 1)
        self.buf += data
        self.buf.append(0)

    def string_seq(self, texts):
        self.u32(len(texts))
        for text in texts:
            self.string(text)

    def f32_seq(self, values):
        """
        Append a float32[] sequence: an array('f') (copied as is), a numpy array or floats.

        A numpy array is cast like rclpy casts a Python float (C cast, round to nearest).
        """
        self.u32(len(values))
        if isinstance(values, array) and values.typecode == 'f':
            self.buf += values.tobytes()
        elif hasattr(values, 'dtype'):
            self.buf += values.astype('<f4').tobytes()
        else:
            self.buf += array('f', values).tobytes()

    def u8_seq(self, values):
        self.u32(len(values))
        self.buf += bytes(values)

    def u16_seq(self, values):
        self.u32(len(values))
        if isinstance(values, array) and values.typecode == 'H':
            self.buf += values.tobytes()
        elif hasattr(values, 'dtype'):
            self.buf += values.astype('<u2').tobytes()
        else:
            self.buf += array('H', values).tobytes()

    def bool_seq(self, values):
        self.u32(len(values))
        self.buf += bytes(1 if v else 0 for v in values)

    def header(self, sec, nanosec, frame_id):
        self.time(sec, nanosec)
        self.string(frame_id)

    def getvalue(self):
        return bytes(self.buf)


class Reader:
    """Reads CDR fields from bytes that start with the CDR_LE encapsulation header."""

    __slots__ = ('data', 'pos')

    def __init__(self, data):
        if len(data) < _HEADER or data[0:2] != b'\x00\x01':
            raise CdrError('not little-endian CDR (encapsulation header)')
        self.data = data
        self.pos = _HEADER

    def align(self, size):
        rem = (self.pos - _HEADER) % size
        if rem:
            self.pos += size - rem

    def _take(self, n):
        start = self.pos
        end = start + n
        if n < 0 or end > len(self.data):
            raise CdrError(f'message ends at {len(self.data)} bytes, {end} needed')
        self.pos = end
        return start

    def u8(self):
        return self.data[self._take(1)]

    def boolean(self):
        return _bool(self.data[self._take(1)])

    def u32(self):
        self.align(4)
        return _U32.unpack_from(self.data, self._take(4))[0]

    def i32(self):
        self.align(4)
        return _I32.unpack_from(self.data, self._take(4))[0]

    def time(self):
        self.align(4)
        return _TIME.unpack_from(self.data, self._take(8))

    def f64s(self, unpacker):
        self.align(8)
        return unpacker.unpack_from(self.data, self._take(unpacker.size))

    def string(self):
        n = self.u32()
        if n == 0:
            raise CdrError('string without its terminating NUL')
        start = self._take(n)
        raw = self.data[start:start + n - 1]
        nul = raw.find(b'\x00')
        if nul >= 0:
            raw = raw[:nul]
        return raw.decode('utf-8', 'replace')

    def string_seq(self):
        n = self.u32()
        if n > len(self.data) - self.pos:      # each element takes >= 4 bytes
            raise CdrError(f'string sequence of {n} elements in {len(self.data)} bytes')
        return [self.string() for _ in range(n)]

    def _seq(self, typecode, size):
        n = self.u32()
        if size > 1:
            self.align(size)
        start = self._take(n * size)
        return array(typecode, self.data[start:start + n * size])

    def f32_seq(self):
        return self._seq('f', 4)

    def u8_seq(self):
        return self._seq('B', 1)

    def u16_seq(self):
        return self._seq('H', 2)

    def bool_seq(self):
        n = self.u32()
        start = self._take(n)
        return [_bool(b) for b in self.data[start:start + n]]

    def header(self):
        sec, nanosec = self.time()
        return sec, nanosec, self.string()


# --- message encoders (field order = the .msg files) ----------------------------------------

def encode_bridge_data(w, sec, nanosec, frame_id, orientation, angular_velocity,
                       linear_acceleration, joint_name, position, velocity, effort,
                       temperature, status):
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


def encode_bridge_state(w, floats, drives_enabled, status, up_time):
    """hb50_commons/msg/BridgeState; `floats` = battery, bus_v ... ext2_t (10 values)."""
    w.f32s(floats)
    w.boolean(drives_enabled)
    w.string_seq(status)
    w.i32(up_time)
    return w


def encode_joint_command(w, sec, nanosec, frame_id, source_node, name, kp, ki, kd, t_pos,
                         t_vel, t_trq, brake):
    """hb50_commons/msg/JointCommand."""
    w.header(sec, nanosec, frame_id)
    w.string(source_node)
    w.string_seq(name)
    for values in (kp, ki, kd, t_pos, t_vel, t_trq):
        w.f32_seq(values)
    w.bool_seq(brake)
    return w


def encode_robot_state(w, sec, nanosec, frame_id, legs, position, orientation, body_lin,
                       body_ang, world_lin, world_ang, motion_mode, motion_type, motion_gait):
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

class FixedLayout:
    """
    A message whose strings and sequence lengths are fixed, compiled to one struct.Struct.

    The constant parts (strings, sequence lengths) are baked in; `pack(*values)` fills the
    variable fields in the order they were declared and returns the CDR bytes. On the
    500 Hz path this is several times cheaper than the field-by-field Writer.
    """

    def __init__(self):
        self._fmt = ['<']
        self._pos = 0               # offset after the encapsulation header
        self._args = []             # constants, None where a variable goes
        self._slots = []            # indices of the variable arguments in _args
        self.padding = []           # offsets of the padding bytes (tests)
        self._struct = None

    def _align(self, size):
        fill = (-self._pos) % size
        if fill:
            self._fmt.append(f'{fill}x')
            self.padding.extend(range(_HEADER + self._pos, _HEADER + self._pos + fill))
            self._pos += fill

    def const(self, data, align=1):
        """Constant bytes, starting at a multiple of `align`."""
        self._align(align)
        self._fmt.append(f'{len(data)}s')
        self._args.append(bytes(data))
        self._pos += len(data)
        return self

    def u32(self, value):
        return self.const(_U32.pack(value), 4)

    def string(self, text):
        data = _utf8(text)
        return self.const(_U32.pack(len(data) + 1) + data + b'\x00', 4)

    def string_seq(self, texts):
        self.u32(len(texts))
        for text in texts:
            self.string(text)
        return self

    def var(self, code, size, count=1):
        """`count` variable primitives of struct `code` and `size` bytes (one value each)."""
        self._align(size)
        self._fmt.append(f'{count}{code}')
        for _ in range(count):
            self._slots.append(len(self._args))
            self._args.append(None)
        self._pos += size * count
        return self

    def header(self, frame_id):
        """std_msgs/Header: variable stamp (two values: sec, nanosec), constant frame_id."""
        return self.var('i', 4).var('I', 4).string(frame_id)

    def var_bytes(self, nbytes, align):
        """Declare a variable block of `nbytes` raw bytes (a packed array), `align`-aligned."""
        self._align(align)
        self._fmt.append(f'{nbytes}s')
        self._slots.append(len(self._args))
        self._args.append(None)
        self._pos += nbytes
        return self

    def build(self):
        self._struct = struct.Struct(''.join(self._fmt))
        self._template = self._args
        self._consts = [(i, c) for i, c in enumerate(self._args) if c is not None]
        self.size = _HEADER + self._struct.size
        return self

    def unpack(self, data):
        """
        Return the variable values of `data` if it has exactly this layout, else None.

        Exactly: the same length and every constant part (strings, sequence lengths) byte
        for byte equal; the padding bytes are not read.
        """
        if len(data) != self.size or data[0:2] != b'\x00\x01':
            return None
        values = self._struct.unpack_from(data, _HEADER)
        for i, const in self._consts:
            if values[i] != const:
                return None
        return [values[i] for i in self._slots]

    def pack(self, *values):
        if len(values) != len(self._slots):
            raise ValueError(f'{len(self._slots)} values expected, not {len(values)}')
        args = list(self._template)
        for slot, value in zip(self._slots, values):
            args[slot] = value
        return ENCAPSULATION + self._struct.pack(*args)


def f32_bytes(values):
    """Little-endian float32 bytes of a numpy array (C cast) or of a sequence of floats."""
    if hasattr(values, 'dtype'):
        return values.astype('<f4').tobytes()
    return array('f', values).tobytes()


def bridge_data_layout(frame_id, joint_names):
    """
    Compile the layout of a BridgeData with this frame_id and these joint names.

    pack(sec, nanosec, qx, qy, qz, qw, gx, gy, gz, ax, ay, az, position, velocity, effort,
    temperature, status): the five arrays as bytes of len(joint_names) elements (float32
    f32_bytes, uint8, uint16 little endian).
    """
    n = len(joint_names)
    return (FixedLayout().header(frame_id).var('d', 8, 10).string_seq(joint_names)
            .u32(n).var_bytes(4 * n, 4).u32(n).var_bytes(4 * n, 4).u32(n).var_bytes(4 * n, 4)
            .u32(n).var_bytes(n, 1).u32(n).var_bytes(2 * n, 2).build())


# --- message decoders -----------------------------------------------------------------------

class DecodedJointCommand:
    """The fields of a JointCommand as rclpy would deserialize them (arrays as array('f'))."""

    __slots__ = ('sec', 'nanosec', 'frame_id', 'source_node', 'name', 'kp', 'ki', 'kd',
                 't_pos', 't_vel', 't_trq', 'brake')


class DecodedBridgeData:
    """The fields of a BridgeData; orientation (x, y, z, w) and the vectors as tuples."""

    __slots__ = ('sec', 'nanosec', 'frame_id', 'orientation', 'angular_velocity',
                 'linear_acceleration', 'joint_name', 'joint_position', 'joint_velocity',
                 'joint_effort', 'joint_temperature', 'joint_status')


def decode_joint_command(data):
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


def joint_command_body(data):
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


def decode_bridge_data(data):
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


def joint_command_layout(frame_id, source_node, names):
    """
    Compile the layout of a JointCommand from one source with these joint names.

    pack(sec, nanosec, kp, ki, kd, t_pos, t_vel, t_trq, brake): the six gains/targets as
    float32 bytes of len(names) elements (f32_bytes), brake as len(names) bytes 0/1.
    """
    n = len(names)
    lay = FixedLayout().header(frame_id).string(source_node).string_seq(names)
    for _ in range(6):
        lay.u32(n).var_bytes(4 * n, 4)
    return lay.u32(n).var_bytes(n, 1).build()


def robot_state_layout(frame_id, leg_names):
    """
    Compile the layout of a RobotState with these legs.

    pack(sec, nanosec, then per leg: contact, 9 floats (foot_pos_body, foot_vel,
    foot_force_est), then 19 floats (pose position, orientation x y z w, body_vel linear,
    angular, world_vel linear, angular), motion_mode, motion_type, motion_gait (ints)).
    """
    lay = FixedLayout().header(frame_id).u32(len(leg_names))
    for name in leg_names:
        lay.string(name).var('?', 1).var('d', 8, 9)
    return lay.var('d', 8, 19).var('B', 1, 3).build()


def bridge_state_layout(status):
    """
    Compile the layout of a BridgeState with these status strings.

    pack(floats, drives_enabled, up_time): floats = f32_bytes of (battery, bus_v, bus_i,
    bus_p, bus_pt, legs_v, charger_v, bridge_t, ext1_t, ext2_t), so each is the C cast.
    """
    return FixedLayout().var_bytes(40, 4).var('?', 1).string_seq(status).var('i', 4).build()


class _LayoutCache:
    """The few most recent fixed layouts seen, tried before the field-by-field decoder."""

    def __init__(self, size):
        self._size = size
        self._entries = []          # (key, layout), most recent first

    def find(self, data):
        for key, layout in self._entries:
            values = layout.unpack(data)
            if values is not None:
                return key, values
        return None, None

    def add(self, key, make):
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

    def __init__(self, max_shapes=4):
        self._cache = _LayoutCache(max_shapes)

    def decode(self, data):
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

    def learn(self, msg):
        """Compile the shape of a decoded command (bridge_node: one that passed validation)."""
        n = len(msg.name)
        fields = ('kp', 'ki', 'kd', 't_pos', 't_vel', 't_trq', 'brake')
        if all(len(getattr(msg, f)) == n for f in fields):
            key = (msg.frame_id, msg.source_node, tuple(msg.name))
            self._cache.add(key, lambda: joint_command_layout(*key))


class BridgeDataDecoder:
    """decode_bridge_data, fast (one struct.unpack) for the (frame_id, joint names) learnt."""

    def __init__(self, max_shapes=2):
        self._cache = _LayoutCache(max_shapes)

    def decode(self, data):
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

    def learn(self, msg):
        n = len(msg.joint_name)
        if all(len(getattr(msg, f)) == n for f in ('joint_position', 'joint_velocity',
                                                   'joint_effort', 'joint_temperature',
                                                   'joint_status')):
            key = (msg.frame_id, tuple(msg.joint_name))
            self._cache.add(key, lambda: bridge_data_layout(*key))
