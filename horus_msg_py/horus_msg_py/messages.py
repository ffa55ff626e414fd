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
import mmap
import operator
from typing import (Any, Callable, cast, ClassVar, Dict, Generic, Iterable, List, Mapping,
                    Optional, overload, SupportsFloat, SupportsIndex, Tuple, Type, TypeVar,
                    Union)

import numpy as np
import numpy.typing as npt

from .errors import LayoutError, NameTooLongError
from .layouts import (ARRAY, DTYPES, Field, LAYOUTS, MAX_JOINTS, MAX_NAME_BYTES, NAME,
                      NAME_ARRAY, NAME_FIELD_BYTES, NESTED, PADDING, SCALAR)

_F32_MAX = float(np.finfo(np.float32).max)

_M = TypeVar('_M', bound='HorusMessage')
_Value = TypeVar('_Value')
_Given = TypeVar('_Given')
_Number = TypeVar('_Number', np.float32, np.float64)
#: The one-element structured array behind a message.
_Record = npt.NDArray[np.void]
#: What ``from_bytes`` views in place and ``write_into`` writes into.
Buffer = Union[bytes, bytearray, memoryview, mmap.mmap, npt.NDArray[Any]]


def _view(buffer: Buffer) -> memoryview:
    # ndarray.data is the array's memoryview (numpy types ndarray as a buffer on 3.12+ only).
    return memoryview(buffer.data if isinstance(buffer, np.ndarray) else buffer)


def encode_name(value: object, what: str = 'name') -> bytes:
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


def decode_name(raw: bytes, what: str = 'name') -> str:
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


def _check_float(name: str, fmt: str, value: Any) -> float:
    try:
        value = float(value)
    except (TypeError, ValueError) as exc:
        raise LayoutError('%s must be a number, got %r' % (name, value)) from exc
    if fmt == '<f4' and math.isfinite(value) and abs(value) > _F32_MAX:
        raise LayoutError('%s=%r does not fit float32' % (name, value))
    return float(value)


def _check_int(name: str, fmt: str, value: Any) -> int:
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
    return int(value)


class _Field(Generic[_Value, _Given]):
    """
    A message field: reads give ``_Value``, writes take ``_Given`` (checked, never cast).

    Installed on each message class from ``LAYOUTS`` (see ``_from_layout``); the class
    body's annotations name the fields and their types for readers and type checkers.
    """

    def __init__(self, name: str, doc: str) -> None:
        self.name = name
        self.__doc__ = doc

    @overload
    def __get__(self, obj: None, owner: Optional[type] = None) -> '_Field[_Value, _Given]':
        ...

    @overload
    def __get__(self, obj: 'HorusMessage', owner: Optional[type] = None) -> _Value:
        ...

    def __get__(self, obj: Optional['HorusMessage'], owner: Optional[type] = None
                ) -> Union['_Field[_Value, _Given]', _Value]:
        if obj is None:
            return self
        return self.read(obj._a)

    def __set__(self, obj: 'HorusMessage', value: _Given) -> None:
        self.write(obj._a, value)

    def read(self, record: _Record) -> _Value:
        raise NotImplementedError

    def write(self, record: _Record, value: _Given) -> None:
        raise NotImplementedError


class _Scalar(_Field[_Value, _Given]):
    def __init__(self, name: str, fmt: str) -> None:
        super().__init__(name, '%s (%s)' % (name, np.dtype(fmt).name))
        self.fmt = fmt
        is_float = np.dtype(fmt).kind == 'f'
        self._check = _check_float if is_float else _check_int
        # _Value is float for a float format and int otherwise (FloatField, IntField).
        self._cast = cast(Callable[[Any], _Value], float if is_float else int)

    def read(self, record: _Record) -> _Value:
        return self._cast(record[self.name][0])

    def write(self, record: _Record, value: _Given) -> None:
        record[self.name][0] = self._check(self.name, self.fmt, value)


#: A float32/float64 field: reads a float, takes anything float() accepts.
FloatField = _Scalar[float, SupportsFloat]
#: An unsigned integer field: reads an int, takes an integer (not a bool) that fits.
IntField = _Scalar[int, SupportsIndex]


class ArrayField(_Field[np.ndarray[Any, np.dtype[_Number]], npt.ArrayLike]):
    """A fixed-shape numeric array: reads a view into the message, takes that shape only."""

    def __init__(self, name: str, fmt: str, shape: Tuple[int, ...]) -> None:
        super().__init__(name, '%s: %s%s view' % (name, np.dtype(fmt).name, shape))
        self.fmt = fmt
        self.shape = shape

    def read(self, record: _Record) -> np.ndarray[Any, np.dtype[_Number]]:
        view: np.ndarray[Any, np.dtype[_Number]] = record[self.name][0]
        return view  # a view: writes go to the underlying buffer

    def write(self, record: _Record, value: npt.ArrayLike) -> None:
        arr = np.asarray(value, dtype=np.float64)
        if arr.shape != self.shape:
            raise LayoutError('%s needs shape %s, got %s (no truncation or padding)'
                              % (self.name, self.shape, arr.shape))
        if self.fmt == '<f4':
            finite = np.isfinite(arr)
            if np.any(np.abs(arr[finite]) > _F32_MAX):
                raise LayoutError('%s has values that do not fit float32' % self.name)
        record[self.name][0] = arr


class NameField(_Field[str, str]):
    """A NUL-terminated UTF-8 name of at most 31 bytes."""

    def __init__(self, name: str) -> None:
        super().__init__(name, '%s: NUL-terminated, at most 31 UTF-8 bytes' % name)

    def read(self, record: _Record) -> str:
        return decode_name(record[self.name][0], self.name)

    def write(self, record: _Record, value: str) -> None:
        record[self.name][0] = encode_name(value, self.name)


class NamesField(_Field[List[str], Iterable[str]]):
    """A fixed number of name slots: reads every slot, takes up to that many names."""

    def __init__(self, name: str, count: int) -> None:
        super().__init__(name, '%s: up to %d names of at most 31 bytes' % (name, count))
        self.count = count

    def read(self, record: _Record) -> List[str]:
        return [decode_name(raw, '%s[%d]' % (self.name, i))
                for i, raw in enumerate(record[self.name][0])]

    def write(self, record: _Record, value: Iterable[str]) -> None:
        names = list(value)
        if len(names) > self.count:
            raise LayoutError('%s holds at most %d names, got %d'
                              % (self.name, self.count, len(names)))
        encoded = [encode_name(v, '%s[%d]' % (self.name, i)) for i, v in enumerate(names)]
        record[self.name][0] = encoded + [b''] * (self.count - len(encoded))


class NestedField(_Field[_M, Union[_M, Mapping[str, Any]]]):
    """Another layout embedded in place: reads a view, takes a message or a dict of fields."""

    def __init__(self, name: str, layout: str) -> None:
        super().__init__(name, '%s: nested %s view' % (name, layout))
        self.layout = layout

    def _cls(self) -> Type[_M]:
        # The class annotation NestedField[Pose2D] names the class LAYOUTS' layout name
        # resolves to; _from_layout checks that the annotation's field kind matches.
        return cast(Type[_M], MESSAGE_TYPES[self.layout])

    def read(self, record: _Record) -> _M:
        return self._cls()._wrap(record[self.name])

    def write(self, record: _Record, value: Union[_M, Mapping[str, Any]]) -> None:
        cls = self._cls()
        if isinstance(value, dict):
            value = cls(**value)
        if not isinstance(value, cls):
            raise LayoutError('%s must be a %s or dict, got %s'
                              % (self.name, self.layout, type(value).__name__))
        record[self.name][0] = value._a[0]


class HorusMessage:
    """Base class: one fixed-size HORUS struct viewed as numpy fields."""

    __slots__ = ('_a',)
    TYPE_NAME: ClassVar[str] = ''
    DTYPE: ClassVar[Optional['np.dtype[np.void]']] = None
    SIZE: ClassVar[int] = 0
    FIELDS: ClassVar[Tuple[str, ...]] = ()
    _NAME_OFFSETS: ClassVar[Tuple[int, ...]] = ()
    _a: _Record

    def __init__(self, **fields: Any) -> None:
        self._a = np.zeros(1, dtype=self.DTYPE)
        for key, value in fields.items():
            if key not in self.FIELDS:
                raise TypeError('%s has no field %r' % (self.TYPE_NAME, key))
            setattr(self, key, value)

    @classmethod
    def _wrap(cls: Type[_M], array: _Record) -> _M:
        obj = cls.__new__(cls)
        obj._a = array
        return obj

    @classmethod
    def from_bytes(cls: Type[_M], buffer: Buffer, offset: int = 0) -> _M:
        """
        View ``buffer`` (bytes, bytearray, memoryview, mmap, ndarray) in place.

        No copy is made: the object reads (and, for a writable buffer, writes)
        the caller's memory. Use ``.copy()`` to detach.
        """
        nbytes = _view(buffer).nbytes
        if offset < 0 or nbytes - offset < cls.SIZE:
            raise LayoutError('%s needs %d bytes at offset %d, buffer has %d'
                              % (cls.TYPE_NAME, cls.SIZE, offset, nbytes))
        return cls._wrap(np.frombuffer(buffer, dtype=cls.DTYPE, count=1, offset=offset))

    def copy(self: _M) -> _M:
        return self._wrap(self._a.copy())

    def to_bytes(self) -> bytes:
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

    def write_into(self, buffer: Buffer, offset: int = 0) -> None:
        """Copy ``to_bytes()`` into a writable buffer (e.g. a shared-memory slot)."""
        _view(buffer)[offset:offset + self.SIZE] = self.to_bytes()

    def to_dict(self) -> Dict[str, Any]:
        out = {}
        for name in self.FIELDS:
            value = getattr(self, name)
            if isinstance(value, HorusMessage):
                value = value.to_dict()
            elif isinstance(value, np.ndarray):
                value = value.tolist()
            out[name] = value
        return out

    def __eq__(self, other: object) -> bool:
        if type(other) is not type(self):
            return NotImplemented
        assert isinstance(other, HorusMessage)
        return self.to_bytes() == other.to_bytes()

    def __hash__(self) -> int:
        return hash((self.TYPE_NAME, self.to_bytes()))

    def __repr__(self) -> str:
        return '%s(%s)' % (self.TYPE_NAME, ', '.join(
            '%s=%r' % kv for kv in self.to_dict().items()))


def _name_offsets(type_name: str, base: int = 0) -> Tuple[int, ...]:
    offsets: List[int] = []
    for name, kind, fmt, shape, offset in LAYOUTS[type_name][1]:
        if kind == NAME:
            offsets.append(base + offset)
        elif kind == NAME_ARRAY:
            offsets.extend(base + offset + i * NAME_FIELD_BYTES for i in range(shape[0]))
        elif kind == NESTED:
            offsets.extend(_name_offsets(fmt, base + offset))
    return tuple(offsets)


def _declares(hint: Any, field: Field) -> bool:
    """Return True when a class annotation such as ``ArrayField[np.float32]`` fits ``field``."""
    _name, kind, fmt, _shape, _offset = field
    origin = getattr(hint, '__origin__', hint)
    args: Tuple[Any, ...] = getattr(hint, '__args__', ())
    if kind == SCALAR:
        return origin is _Scalar and args[0] is (float if np.dtype(fmt).kind == 'f' else int)
    if kind == ARRAY:
        return origin is ArrayField and np.dtype(args[0]) == np.dtype(fmt)
    if kind == NESTED:
        return origin is NestedField and args[0].__name__ == fmt
    return origin is (NameField if kind == NAME else NamesField)


MESSAGE_TYPES: Dict[str, Type[HorusMessage]] = {}


def _from_layout(cls: Type[_M]) -> Type[_M]:
    """
    Give ``cls`` the fields, size and dtype of ``LAYOUTS[cls.__name__]``.

    The class body only annotates the fields; their names, order and kinds must match
    the layout table, which stays the single source of sizes and offsets.
    """
    type_name = cls.__name__
    size, fields = LAYOUTS[type_name]
    hints = list(cls.__dict__.get('__annotations__', {}).items())
    if [name for name, _hint in hints] != [f[0] for f in fields] or not all(
            _declares(hint, field) for (_name, hint), field in zip(hints, fields)):
        raise TypeError('%s declares %s; LAYOUTS has %s' % (type_name, hints, fields))
    cls.__doc__ = ('HORUS %s (%d bytes); fields in wire order: %s.'
                   % (type_name, size, ', '.join(f[0] for f in fields)))
    cls.TYPE_NAME = type_name
    cls.DTYPE = DTYPES[type_name]
    cls.SIZE = size
    cls.FIELDS = tuple(f[0] for f in fields)
    cls._NAME_OFFSETS = _name_offsets(type_name)
    for name, kind, fmt, shape, _offset in fields:
        field: _Field[Any, Any]
        if kind == SCALAR:
            field = _Scalar(name, fmt)
        elif kind == ARRAY:
            field = ArrayField(name, fmt, shape)
        elif kind == NAME:
            field = NameField(name)
        elif kind == NAME_ARRAY:
            field = NamesField(name, shape[0])
        else:
            field = NestedField(name, fmt)
        setattr(cls, name, field)
    MESSAGE_TYPES[type_name] = cls
    return cls


_F32 = np.float32
_F64 = np.float64


@_from_layout
class Pose2D(HorusMessage):
    __slots__ = ()
    x: FloatField
    y: FloatField
    theta: FloatField
    timestamp_ns: IntField


@_from_layout
class Twist(HorusMessage):
    __slots__ = ()
    linear: ArrayField[_F64]
    angular: ArrayField[_F64]
    timestamp_ns: IntField


@_from_layout
class LaserScan(HorusMessage):
    __slots__ = ()
    ranges: ArrayField[_F32]
    angle_min: FloatField
    angle_max: FloatField
    range_min: FloatField
    range_max: FloatField
    angle_increment: FloatField
    time_increment: FloatField
    scan_time: FloatField
    timestamp_ns: IntField


@_from_layout
class Imu(HorusMessage):
    __slots__ = ()
    orientation: ArrayField[_F64]
    orientation_covariance: ArrayField[_F64]
    angular_velocity: ArrayField[_F64]
    angular_velocity_covariance: ArrayField[_F64]
    linear_acceleration: ArrayField[_F64]
    linear_acceleration_covariance: ArrayField[_F64]
    timestamp_ns: IntField


@_from_layout
class Odometry(HorusMessage):
    __slots__ = ()
    pose: NestedField[Pose2D]
    twist: NestedField[Twist]
    pose_covariance: ArrayField[_F64]
    twist_covariance: ArrayField[_F64]
    frame_id: NameField
    child_frame_id: NameField
    timestamp_ns: IntField


@_from_layout
class JointState(HorusMessage):
    __slots__ = ()
    names: NamesField
    joint_count: IntField
    positions: ArrayField[_F64]
    velocities: ArrayField[_F64]
    efforts: ArrayField[_F64]
    timestamp_ns: IntField


@_from_layout
class RangeSensor(HorusMessage):
    __slots__ = ()
    sensor_type: IntField
    field_of_view: FloatField
    min_range: FloatField
    max_range: FloatField
    range: FloatField    # noqa: A003 (the HORUS field name)
    timestamp_ns: IntField


@_from_layout
class BatteryState(HorusMessage):
    __slots__ = ()
    voltage: FloatField
    current: FloatField
    charge: FloatField
    capacity: FloatField
    percentage: FloatField
    power_supply_status: IntField
    temperature: FloatField
    cell_voltages: ArrayField[_F32]
    cell_count: IntField
    timestamp_ns: IntField


@_from_layout
class NavSatFix(HorusMessage):
    __slots__ = ()
    latitude: FloatField
    longitude: FloatField
    altitude: FloatField
    position_covariance: ArrayField[_F64]
    position_covariance_type: IntField
    status: IntField
    satellites_visible: IntField
    hdop: FloatField
    vdop: FloatField
    speed: FloatField
    heading: FloatField
    timestamp_ns: IntField


@_from_layout
class MagneticField(HorusMessage):
    __slots__ = ()
    magnetic_field: ArrayField[_F64]
    magnetic_field_covariance: ArrayField[_F64]
    frame_id: NameField
    timestamp_ns: IntField


@_from_layout
class Temperature(HorusMessage):
    __slots__ = ()
    temperature: FloatField
    variance: FloatField
    frame_id: NameField
    timestamp_ns: IntField


@_from_layout
class FluidPressure(HorusMessage):
    __slots__ = ()
    fluid_pressure: FloatField
    variance: FloatField
    frame_id: NameField
    timestamp_ns: IntField


@_from_layout
class Illuminance(HorusMessage):
    __slots__ = ()
    illuminance: FloatField
    variance: FloatField
    frame_id: NameField
    timestamp_ns: IntField


if set(MESSAGE_TYPES) != set(LAYOUTS):
    raise TypeError('no message class for %s' % sorted(set(LAYOUTS) - set(MESSAGE_TYPES)))


def joint_state(names: Iterable[str], positions: Optional[npt.ArrayLike] = None,
                velocities: Optional[npt.ArrayLike] = None,
                efforts: Optional[npt.ArrayLike] = None, timestamp_ns: int = 0) -> JointState:
    """
    Build a JointState from per-joint lists; joint_count follows ``names``.

    Missing (None) value lists mean zeros; a list whose length differs from
    ``names`` is an error.
    """
    names = list(names)
    msg = JointState(names=names, joint_count=len(names), timestamp_ns=timestamp_ns)
    for field, given in (('positions', positions), ('velocities', velocities),
                         ('efforts', efforts)):
        if given is None:
            continue
        values = np.asarray(given, dtype=np.float64)
        if values.shape != (len(names),):
            raise LayoutError('JointState.%s has %d values for %d names'
                              % (field, values.size, len(names)))
        getattr(msg, field)[:len(names)] = values
    return msg


_F64Array = np.ndarray[Any, np.dtype[np.float64]]


def active_joints(msg: JointState) -> Tuple[List[str], _F64Array, _F64Array, _F64Array]:
    """(names, positions, velocities, efforts) of the first ``joint_count`` joints."""
    count = msg.joint_count
    if count > MAX_JOINTS:
        raise LayoutError('JointState.joint_count=%d exceeds %d' % (count, MAX_JOINTS))
    # Only the active names are decoded: HORUS may leave garbage in unused slots.
    names = [decode_name(raw, 'names[%d]' % i) for i, raw in enumerate(msg._a['names'][0][:count])]
    return (names, msg.positions[:count], msg.velocities[:count], msg.efforts[:count])
