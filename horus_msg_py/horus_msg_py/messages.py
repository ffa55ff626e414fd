# Copyright 2025 The horus_msg_py authors
# SPDX-License-Identifier: Apache-2.0
"""
Message classes over the HORUS byte layouts.

Each class wraps a one-element numpy structured array whose dtype comes from
``layouts.DTYPES``. ``from_bytes`` wraps the caller's buffer without copying
(a shared-memory slot can be read in place); ``to_bytes`` returns the exact
wire bytes with padding (and bytes after a name's NUL terminator) as zeros.
"""

import math
import operator

import numpy as np

from .errors import LayoutError, NameTooLongError
from .layouts import (ARRAY, DTYPES, LAYOUTS, MAX_JOINTS, MAX_NAME_BYTES, NAME, NAME_ARRAY,
                      NAME_FIELD_BYTES, NESTED, PADDING, SCALAR)

_F32_MAX = float(np.finfo(np.float32).max)


def encode_name(value, what='name'):
    """UTF-8 bytes of a HORUS name; a name that does not fit is an error, not a cut."""
    if not isinstance(value, str):
        raise LayoutError('%s must be str, got %s' % (what, type(value).__name__))
    raw = value.encode('utf-8')
    if len(raw) > MAX_NAME_BYTES:
        raise NameTooLongError('%s %r is %d UTF-8 bytes; HORUS allows at most %d'
                               % (what, value, len(raw), MAX_NAME_BYTES))
    if b'\0' in raw:
        raise LayoutError('%s %r contains a NUL byte' % (what, value))
    return raw


def decode_name(raw, what='name'):
    """Text up to the first NUL; HORUS may leave garbage after the terminator."""
    # numpy 'S32' items drop trailing NULs, so 32 bytes back means no terminator.
    if len(raw) >= NAME_FIELD_BYTES and b'\0' not in raw:
        raise NameTooLongError('%s is not NUL-terminated within %d bytes'
                               % (what, NAME_FIELD_BYTES))
    text = raw.split(b'\0', 1)[0]
    try:
        return text.decode('utf-8')
    except UnicodeDecodeError as exc:
        raise LayoutError('%s is not valid UTF-8: %r' % (what, text)) from exc


def _check_float(name, fmt, value):
    try:
        value = float(value)
    except (TypeError, ValueError) as exc:
        raise LayoutError('%s must be a number, got %r' % (name, value)) from exc
    if fmt == '<f4' and math.isfinite(value) and abs(value) > _F32_MAX:
        raise LayoutError('%s=%r does not fit float32' % (name, value))
    return value


def _check_int(name, fmt, value):
    if isinstance(value, bool):
        raise LayoutError('%s must be an integer, got bool' % name)
    try:
        value = operator.index(value)
    except TypeError as exc:
        raise LayoutError('%s must be an integer, got %r' % (name, value)) from exc
    info = np.iinfo(np.dtype(fmt))
    if not info.min <= value <= info.max:
        raise LayoutError('%s=%d is outside %s range [%d, %d]'
                          % (name, value, np.dtype(fmt).name, info.min, info.max))
    return value


def _scalar_property(name, fmt):
    is_float = np.dtype(fmt).kind == 'f'
    check = _check_float if is_float else _check_int
    cast = float if is_float else int

    def fget(self):
        return cast(self._a[name][0])

    def fset(self, value):
        self._a[name][0] = check(name, fmt, value)
    return property(fget, fset, doc='%s (%s)' % (name, np.dtype(fmt).name))


def _array_property(name, fmt, shape):
    def fget(self):
        return self._a[name][0]  # a view: writes go to the underlying buffer

    def fset(self, value):
        arr = np.asarray(value, dtype=np.float64)
        if arr.shape != shape:
            raise LayoutError('%s needs shape %s, got %s (no truncation or padding)'
                              % (name, shape, arr.shape))
        if fmt == '<f4':
            finite = np.isfinite(arr)
            if np.any(np.abs(arr[finite]) > _F32_MAX):
                raise LayoutError('%s has values that do not fit float32' % name)
        self._a[name][0] = arr
    return property(fget, fset, doc='%s: %s%s view' % (name, np.dtype(fmt).name, shape))


def _name_property(name):
    def fget(self):
        return decode_name(self._a[name][0], name)

    def fset(self, value):
        self._a[name][0] = encode_name(value, name)
    return property(fget, fset, doc='%s: NUL-terminated, at most 31 UTF-8 bytes' % name)


def _names_property(name, count):
    def fget(self):
        return [decode_name(raw, '%s[%d]' % (name, i))
                for i, raw in enumerate(self._a[name][0])]

    def fset(self, value):
        value = list(value)
        if len(value) > count:
            raise LayoutError('%s holds at most %d names, got %d' % (name, count, len(value)))
        encoded = [encode_name(v, '%s[%d]' % (name, i)) for i, v in enumerate(value)]
        self._a[name][0] = encoded + [b''] * (count - len(encoded))
    return property(fget, fset, doc='%s: up to %d names of at most 31 bytes' % (name, count))


def _nested_property(name, layout):
    def fget(self):
        return MESSAGE_TYPES[layout]._wrap(self._a[name])

    def fset(self, value):
        cls = MESSAGE_TYPES[layout]
        if isinstance(value, dict):
            value = cls(**value)
        if not isinstance(value, cls):
            raise LayoutError('%s must be a %s or dict, got %s'
                              % (name, layout, type(value).__name__))
        self._a[name][0] = value._a[0]
    return property(fget, fset, doc='%s: nested %s view' % (name, layout))


class HorusMessage:
    """Base class: one fixed-size HORUS struct viewed as numpy fields."""

    __slots__ = ('_a',)
    TYPE_NAME = ''
    DTYPE = None
    SIZE = 0
    FIELDS = ()
    _NAME_OFFSETS = ()

    def __init__(self, **fields):
        self._a = np.zeros(1, dtype=self.DTYPE)
        for key, value in fields.items():
            if key not in self.FIELDS:
                raise TypeError('%s has no field %r' % (self.TYPE_NAME, key))
            setattr(self, key, value)

    @classmethod
    def _wrap(cls, array):
        obj = cls.__new__(cls)
        obj._a = array
        return obj

    @classmethod
    def from_bytes(cls, buffer, offset=0):
        """
        View ``buffer`` (bytes, bytearray, memoryview, mmap, ndarray) in place.

        No copy is made: the object reads (and, for a writable buffer, writes)
        the caller's memory. Use ``.copy()`` to detach.
        """
        nbytes = memoryview(buffer).nbytes
        if offset < 0 or nbytes - offset < cls.SIZE:
            raise LayoutError('%s needs %d bytes at offset %d, buffer has %d'
                              % (cls.TYPE_NAME, cls.SIZE, offset, nbytes))
        return cls._wrap(np.frombuffer(buffer, dtype=cls.DTYPE, count=1, offset=offset))

    def copy(self):
        return self._wrap(self._a.copy())

    def to_bytes(self):
        """Exact wire bytes; padding and name tails after the NUL are zeros."""
        out = bytearray(self._a.tobytes())
        for start, end in PADDING[self.TYPE_NAME]:
            out[start:end] = bytes(end - start)
        for start in self._NAME_OFFSETS:
            field = out[start:start + NAME_FIELD_BYTES]
            nul = field.find(0)
            if nul >= 0:
                out[start + nul:start + NAME_FIELD_BYTES] = bytes(NAME_FIELD_BYTES - nul)
        return bytes(out)

    def write_into(self, buffer, offset=0):
        """Copy ``to_bytes()`` into a writable buffer (e.g. a shared-memory slot)."""
        memoryview(buffer)[offset:offset + self.SIZE] = self.to_bytes()

    def to_dict(self):
        out = {}
        for name in self.FIELDS:
            value = getattr(self, name)
            if isinstance(value, HorusMessage):
                value = value.to_dict()
            elif isinstance(value, np.ndarray):
                value = value.tolist()
            out[name] = value
        return out

    def __eq__(self, other):
        if type(other) is not type(self):
            return NotImplemented
        return self.to_bytes() == other.to_bytes()

    def __hash__(self):
        return hash((self.TYPE_NAME, self.to_bytes()))

    def __repr__(self):
        return '%s(%s)' % (self.TYPE_NAME, ', '.join(
            '%s=%r' % kv for kv in self.to_dict().items()))


def _name_offsets(type_name, base=0):
    offsets = []
    for name, kind, fmt, shape, offset in LAYOUTS[type_name][1]:
        if kind == NAME:
            offsets.append(base + offset)
        elif kind == NAME_ARRAY:
            offsets.extend(base + offset + i * NAME_FIELD_BYTES for i in range(shape[0]))
        elif kind == NESTED:
            offsets.extend(_name_offsets(fmt, base + offset))
    return tuple(offsets)


def _make_class(type_name):
    size, fields = LAYOUTS[type_name]
    namespace = {
        '__slots__': (),
        '__doc__': 'HORUS %s (%d bytes); fields in wire order: %s.'
                   % (type_name, size, ', '.join(f[0] for f in fields)),
        'TYPE_NAME': type_name, 'DTYPE': DTYPES[type_name], 'SIZE': size,
        'FIELDS': tuple(f[0] for f in fields),
        '_NAME_OFFSETS': _name_offsets(type_name),
    }
    for name, kind, fmt, shape, _offset in fields:
        if kind == SCALAR:
            namespace[name] = _scalar_property(name, fmt)
        elif kind == ARRAY:
            namespace[name] = _array_property(name, fmt, shape)
        elif kind == NAME:
            namespace[name] = _name_property(name)
        elif kind == NAME_ARRAY:
            namespace[name] = _names_property(name, shape[0])
        elif kind == NESTED:
            namespace[name] = _nested_property(name, fmt)
    return type(type_name, (HorusMessage,), namespace)


MESSAGE_TYPES = {name: _make_class(name) for name in LAYOUTS}

Pose2D = MESSAGE_TYPES['Pose2D']
Twist = MESSAGE_TYPES['Twist']
LaserScan = MESSAGE_TYPES['LaserScan']
Imu = MESSAGE_TYPES['Imu']
Odometry = MESSAGE_TYPES['Odometry']
JointState = MESSAGE_TYPES['JointState']
RangeSensor = MESSAGE_TYPES['RangeSensor']
BatteryState = MESSAGE_TYPES['BatteryState']
NavSatFix = MESSAGE_TYPES['NavSatFix']
MagneticField = MESSAGE_TYPES['MagneticField']
Temperature = MESSAGE_TYPES['Temperature']
FluidPressure = MESSAGE_TYPES['FluidPressure']
Illuminance = MESSAGE_TYPES['Illuminance']


def joint_state(names, positions=None, velocities=None, efforts=None, timestamp_ns=0):
    """
    Build a JointState from per-joint lists; joint_count follows ``names``.

    Missing (None) value lists mean zeros; a list whose length differs from
    ``names`` is an error.
    """
    names = list(names)
    msg = JointState(names=names, joint_count=len(names), timestamp_ns=timestamp_ns)
    for field, values in (('positions', positions), ('velocities', velocities),
                          ('efforts', efforts)):
        if values is None:
            continue
        values = np.asarray(values, dtype=np.float64)
        if values.shape != (len(names),):
            raise LayoutError('JointState.%s has %d values for %d names'
                              % (field, values.size, len(names)))
        getattr(msg, field)[:len(names)] = values
    return msg


def active_joints(msg):
    """(names, positions, velocities, efforts) of the first ``joint_count`` joints."""
    count = msg.joint_count
    if count > MAX_JOINTS:
        raise LayoutError('JointState.joint_count=%d exceeds %d' % (count, MAX_JOINTS))
    # Only the active names are decoded: HORUS may leave garbage in unused slots.
    names = [decode_name(raw, 'names[%d]' % i) for i, raw in enumerate(msg._a['names'][0][:count])]
    return (names, msg.positions[:count], msg.velocities[:count], msg.efforts[:count])
