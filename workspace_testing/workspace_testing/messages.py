# SPDX-License-Identifier: Apache-2.0
"""
Messages compared by value, whichever library decoded them (rclpy, rosbags, mcap-ros2).

`plain_fields` turns a message into nested tuples of plain Python values, walked as the
fields of an rclpy template of the same type, so equal messages give equal tuples.
"""

from typing import Any, Dict, List, Tuple


def plain_fields(msg: Any, template: Any) -> Tuple[Any, ...]:
    """
    Return the values of `msg` as nested tuples of plain Python values.

    The fields are walked as those of `template` (an rclpy message of the same type); `msg`
    may come from rclpy, rosbags or mcap-ros2-support: their bytes, numpy arrays and lists
    become the same tuples, so equal messages give equal results.
    """
    values: List[Any] = []
    for field, kinds in _fields(template):
        v, t = getattr(msg, field), getattr(template, field)
        kind = kinds.get(type(t))
        if kind is None:
            kind = kinds[type(t)] = _kind(t)
        if kind is _MESSAGE:
            values.append(plain_fields(v, t))
        elif kind is _BYTE:     # a `byte` field: rclpy gives b'\x01', the others int
            values.append(v[0] if isinstance(v, (bytes, bytearray)) else int(v))
        elif kind is _ARRAY:
            if len(t) and hasattr(t[0], 'get_fields_and_field_types'):
                values.append(tuple(plain_fields(a, t[0]) for a in v))
            elif hasattr(v, 'tolist'):      # numpy or array.array: plain values at once
                values.append(tuple(v.tolist()))
            elif isinstance(v, (bytes, bytearray)):
                values.append(tuple(v))
            else:
                values.append(tuple(_plain(a) for a in v))
        else:
            values.append(v)
    return tuple(values)


# What a template's field holds decides how plain_fields walks it; every test is on the
# value's type, so it is worked out once per (message class, field, value type).
_MESSAGE, _BYTE, _ARRAY, _VALUE = 'message', 'byte', 'array', 'value'
_FIELDS: Dict[type, List[Tuple[str, Dict[type, str]]]] = {}


def _fields(template: Any) -> List[Tuple[str, Dict[type, str]]]:
    """[(field name, {value type: kind})] of a message class, in definition order."""
    fields = _FIELDS.get(type(template))
    if fields is None:
        fields = _FIELDS[type(template)] = [
            (name, {}) for name in template.get_fields_and_field_types()]
    return fields


def _kind(t: Any) -> str:
    if hasattr(t, 'get_fields_and_field_types'):
        return _MESSAGE
    if isinstance(t, bytes):
        return _BYTE
    if isinstance(t, (list, tuple)) or hasattr(t, 'typecode') or hasattr(t, 'dtype'):
        return _ARRAY
    return _VALUE


def _plain(value: Any) -> Any:
    """One array element as a plain value (a 1-byte bytes object is its integer)."""
    if isinstance(value, (bytes, bytearray)) and len(value) == 1:
        return value[0]
    return value.item() if hasattr(value, 'item') else value
