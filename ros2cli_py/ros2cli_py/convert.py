# SPDX-License-Identifier: Apache-2.0
"""
Messages to YAML/CSV and YAML values to messages, with rosidl_runtime_py's rules.

The output layout is that of ``ros2 topic echo`` (rosidl_runtime_py.message_to_yaml): fields in
definition order, block style, PyYAML's list layout, bytes as strings of their code points,
arrays longer than the truncate length cut with a trailing '...'. rosidl_runtime_py is not on
PyPI, so this module implements the same rules.
"""

import array
from collections import OrderedDict
import math
import sys
import time
from typing import Any, Callable, Dict, List, Optional, Tuple

import numpy
from rosidl_parser.definition import AbstractNestedType
from rosidl_parser.definition import AbstractString
from rosidl_parser.definition import AbstractWString
from rosidl_parser.definition import Array
from rosidl_parser.definition import BasicType
from rosidl_parser.definition import BoundedSequence
from rosidl_parser.definition import NamespacedType
from rosidl_parser.definition import UnboundedSequence
import yaml


class _Dumper(yaml.Dumper):  # type: ignore[misc, unused-ignore]  # yaml: Any
    """PyYAML's default dumper, mappings kept in field order."""


def _represent_ordered(dumper: Any, data: 'OrderedDict[str, Any]') -> Any:
    items = [(dumper.represent_data(k), dumper.represent_data(v)) for k, v in data.items()]
    return yaml.nodes.MappingNode('tag:yaml.org,2002:map', items)


_Dumper.add_representer(OrderedDict, _represent_ordered)


def is_message(value: Any) -> bool:
    """Tell whether ``value`` is an instance of a generated rosidl message class."""
    return hasattr(value, 'get_fields_and_field_types') and hasattr(value, 'SLOT_TYPES')


def _type_name(value_type: Any) -> str:
    if isinstance(value_type, BasicType):
        typename: str = value_type.typename
        return typename
    if isinstance(value_type, AbstractString):
        return 'string'
    if isinstance(value_type, AbstractWString):
        return 'wstring'
    if isinstance(value_type, NamespacedType):
        return '/'.join(value_type.namespaced_name())
    return 'unknown'


def _abbreviate(value: Any, field_type: Any) -> str:
    name = _type_name(field_type.value_type)
    if isinstance(field_type, Array):
        return f'<array type: {name}[{field_type.size}]>'
    if isinstance(field_type, BoundedSequence):
        return f'<sequence type: {name}[{field_type.maximum_size}], length: {len(value)}>'
    if isinstance(field_type, UnboundedSequence):
        return f'<sequence type: {name}, length: {len(value)}>'
    return 'unknown'


def _convert(value: Any, field_type: Any = None, truncate: Optional[int] = None,
             no_arr: bool = False, no_str: bool = False) -> Any:
    if isinstance(value, bytes):
        if truncate is not None and len(value) > truncate:
            return ''.join(chr(c) for c in value[:truncate]) + '...'
        return ''.join(chr(c) for c in value)
    if isinstance(value, str):
        if no_str:
            return f'<string length: <{len(value)}>>'
        if truncate is not None and len(value) > truncate:
            return value[:truncate] + '...'
        return value
    if isinstance(value, (list, tuple, array.array, numpy.ndarray)):
        kind: Callable[[List[Any]], Any] = tuple if isinstance(value, tuple) else list
        if no_arr and field_type is not None:
            return _abbreviate(value, field_type)
        items = value
        cut = truncate is not None and len(value) > truncate
        if cut:
            items = value[:truncate]
        out = [_convert(v, truncate=truncate, no_arr=no_arr, no_str=no_str) for v in items]
        if cut:
            out.append('...')
        return kind(out)
    if isinstance(value, numpy.number):
        return value.item()
    if isinstance(value, (bool, int, float)):
        return value
    if is_message(value):
        return message_to_ordereddict(value, truncate=truncate, no_arr=no_arr, no_str=no_str)
    return value


def message_to_ordereddict(msg: Any, truncate: Optional[int] = None, no_arr: bool = False,
                           no_str: bool = False) -> 'OrderedDict[str, Any]':
    """Fields of a message, in definition order, converted for YAML."""
    out: 'OrderedDict[str, Any]' = OrderedDict()
    for name, slot_type in zip(msg.get_fields_and_field_types(), msg.SLOT_TYPES):
        out[name] = _convert(getattr(msg, name), slot_type, truncate, no_arr, no_str)
    return out


def message_to_yaml(msg: Any, truncate: Optional[int] = None, no_arr: bool = False,
                    no_str: bool = False, flow_style: bool = False) -> str:
    """YAML text of a message, as ``ros2 topic echo`` prints it (before the '---')."""
    return dump_yaml(message_to_ordereddict(msg, truncate, no_arr, no_str), flow_style)


def dump_yaml(fields: Any, flow_style: bool = False) -> str:
    """YAML text of fields from message_to_ordereddict (echo's style)."""
    text: str = yaml.dump(fields, Dumper=_Dumper, allow_unicode=True, width=sys.maxsize,
                          default_flow_style=flow_style)
    return text


def message_to_csv(msg: Any, truncate: Optional[int] = None, no_arr: bool = False,
                   no_str: bool = False) -> str:
    """All leaf values of a message separated by commas (``ros2 topic echo --csv``)."""
    def text(value: Any, field_type: Any = None) -> str:
        if isinstance(value, (list, tuple, array.array, numpy.ndarray)):
            if no_arr and field_type is not None:
                return _abbreviate(value, field_type)
            parts: List[str] = []
            for i, item in enumerate(value):
                if truncate is not None and i >= truncate:
                    parts.append('...')
                    break
                parts.append(text(item))
            return ','.join(parts)
        if isinstance(value, (bool, bytes, float, int, str, numpy.number)):
            if no_str and isinstance(value, str):
                value = f'<string length: <{len(value)}>>'
            elif isinstance(value, bytes) and truncate is not None and len(value) > truncate:
                value = value[:truncate] + b'...'
            elif isinstance(value, str) and truncate is not None and len(value) > truncate:
                value = value[:truncate] + '...'
            return str(value)
        return message_to_csv(value, truncate, no_arr, no_str)

    return ','.join(text(getattr(msg, name), slot_type) for name, slot_type in
                    zip(msg.get_fields_and_field_types(), msg.SLOT_TYPES))


# ---------------------------------------------------------------------------------------------
# YAML values -> message fields (rosidl_runtime_py.set_message_fields' rules, checked)

class FieldError(ValueError):
    """A value that does not fit its field; the message names the field path."""


def _import_namespaced(nstype: Any) -> Any:
    import importlib
    module = importlib.import_module('.'.join(nstype.namespaces))
    return getattr(module, nstype.name)


def new_message(cls: Any) -> Any:
    """Create an instance whose setters check types and ranges (whatever the environment)."""
    try:
        return cls(check_fields=True)
    except TypeError:       # generators without check_fields (before Iron) always check
        return cls()


def _basic(value: Any, slot_type: Any, path: str) -> Any:
    """Convert a value for a BasicType / string field, refusing lossy conversions."""
    if isinstance(slot_type, (AbstractString, AbstractWString)):
        if isinstance(value, (dict, list)):
            raise FieldError(f"{path}: expected a string, got '{value}'")
        return value if isinstance(value, str) else str(value)
    name = slot_type.typename
    if name == 'boolean':
        if isinstance(value, bool):
            return value
        if isinstance(value, int) and value in (0, 1):
            return bool(value)
        raise FieldError(f"{path}: expected a boolean (true/false), got '{value}'")
    if name == 'octet':
        if isinstance(value, bytes) and len(value) == 1:
            return value
        if isinstance(value, int) and not isinstance(value, bool) and 0 <= value <= 255:
            return bytes([value])
        if isinstance(value, str) and len(value) == 1 and ord(value) <= 255:
            return bytes([ord(value)])
        raise FieldError(f"{path}: expected a byte (an integer 0..255), got '{value}'")
    if name in ('float', 'double', 'long double'):
        if isinstance(value, bool) or not isinstance(value, (int, float)):
            try:
                return float(value)
            except (TypeError, ValueError):
                raise FieldError(f"{path}: expected a number, got '{value}'") from None
        value = float(value)
        if name == 'float' and math.isfinite(value) and abs(value) > _FLT_MAX:
            raise FieldError(f'{path}: {value} is out of the range of float32')
        return value
    # integer types and char
    if isinstance(value, bool):
        raise FieldError(f"{path}: expected an integer, got '{value}'")
    if isinstance(value, float):
        if not value.is_integer():
            raise FieldError(f"{path}: expected an integer, got '{value}'")
        value = int(value)
    elif not isinstance(value, int):
        try:
            value = int(str(value), 0)
        except ValueError:
            raise FieldError(f"{path}: expected an integer, got '{value}'") from None
    bounds = _INT_BOUNDS.get(name)
    if bounds and not bounds[0] <= value <= bounds[1]:
        raise FieldError(
            f'{path}: {value} is out of the range of {name} [{bounds[0]}, {bounds[1]}]')
    return value


_FLT_MAX = 3.4028234663852886e38
_INT_BOUNDS: Dict[str, Tuple[int, int]] = {
    'int8': (-2**7, 2**7 - 1), 'uint8': (0, 2**8 - 1),
    'int16': (-2**15, 2**15 - 1), 'uint16': (0, 2**16 - 1),
    'int32': (-2**31, 2**31 - 1), 'uint32': (0, 2**32 - 1),
    'int64': (-2**63, 2**63 - 1), 'uint64': (0, 2**64 - 1),
    'char': (0, 255),
}


class Stamper:
    """Setters that put the current time into 'auto' headers and 'now' times."""

    def __init__(self) -> None:
        self.setters: List[Callable[[Any], None]] = []

    def __call__(self, clock_now: Optional[int] = None) -> None:
        """Stamp every registered field with the current time."""
        from builtin_interfaces.msg import Time
        ns = time.time_ns() if clock_now is None else clock_now
        for setter in self.setters:
            setter(Time(sec=ns // 1_000_000_000, nanosec=ns % 1_000_000_000))


def set_message_fields(msg: Any, values: Any, stamper: Optional[Stamper] = None,
                       path: str = '') -> None:
    """
    Fill ``msg`` from a YAML mapping; unnamed fields keep their defaults.

    'auto' for a std_msgs/Header and 'now' for a builtin_interfaces/Time register a setter in
    ``stamper`` (stamped at each publish), as ros2cli's pub does.
    """
    if not isinstance(values, dict):
        raise FieldError(f"Value '{values}' is expected to be a dictionary but is a "
                         f'{type(values).__name__}')
    fields = msg.get_fields_and_field_types()
    slots = dict(zip(fields, msg.SLOT_TYPES))
    for name, value in values.items():
        where = f'{path}{name}'
        if name not in slots:
            raise FieldError(f"'{type(msg).__name__}' has no field '{where}' (fields: "
                             f"{', '.join(fields)})")
        slot_type = slots[name]
        try:
            setattr(msg, name, _field_value(msg, name, slot_type, value, stamper, where))
        except FieldError:
            raise
        except (AssertionError, TypeError, ValueError, OverflowError) as e:
            detail = str(e).strip().splitlines()[0] if str(e).strip() else type(e).__name__
            raise FieldError(f"{where}: invalid value '{value}' ({detail})") from None


def _field_value(msg: Any, name: str, slot_type: Any, value: Any, stamper: Optional[Stamper],
                 where: str) -> Any:
    if isinstance(slot_type, NamespacedType):
        cls = _import_namespaced(slot_type)
        full = '/'.join(slot_type.namespaced_name())
        if stamper is not None and full == 'std_msgs/msg/Header' and value == 'auto':
            header = new_message(cls)

            def stamp(t: Any) -> None:
                header.stamp = t
            stamper.setters.append(stamp)
            return header
        if stamper is not None and full == 'builtin_interfaces/msg/Time' and value == 'now':
            stamper.setters.append(lambda t: setattr(msg, name, t))
            return new_message(cls)
        sub = new_message(cls)
        set_message_fields(sub, value, stamper, where + '.')
        return sub
    if isinstance(slot_type, AbstractNestedType):
        if not isinstance(value, (list, tuple)):
            raise FieldError(f"{where}: expected a list, got '{value}'")
        element = slot_type.value_type
        if isinstance(slot_type, Array) and len(value) != slot_type.size:
            raise FieldError(f'{where}: expected {slot_type.size} elements, got {len(value)}')
        if isinstance(slot_type, BoundedSequence) and len(value) > slot_type.maximum_size:
            raise FieldError(
                f'{where}: at most {slot_type.maximum_size} elements, got {len(value)}')
        if isinstance(element, NamespacedType):
            cls = _import_namespaced(element)
            items = []
            for i, item in enumerate(value):
                sub = new_message(cls)
                set_message_fields(sub, item, stamper, f'{where}[{i}].')
                items.append(sub)
            return items
        items = [_basic(v, element, f'{where}[{i}]') for i, v in enumerate(value)]
        current = getattr(msg, name)
        if isinstance(current, array.array):
            return array.array(current.typecode, items)
        if isinstance(current, numpy.ndarray):
            return numpy.array(items, dtype=current.dtype)
        return items
    return _basic(value, slot_type, where)
