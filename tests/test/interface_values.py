# SPDX-License-Identifier: Apache-2.0
"""
Generic helpers over rosidl-generated Python classes.

Import by type name, and build an
instance with a deterministic non-default value in every field (recursively), so that a
round trip can show that no field is lost or altered.
"""

import importlib

from rosidl_parser.definition import AbstractGenericString, AbstractNestedType
from rosidl_parser.definition import Array, BasicType, NamespacedType

SEQUENCE_LENGTH = 3

INTEGER_BITS = {
    'int8': (8, True), 'uint8': (8, False), 'int16': (16, True), 'uint16': (16, False),
    'int32': (32, True), 'uint32': (32, False), 'int64': (64, True), 'uint64': (64, False),
}


def import_type(name):
    """'pkg/msg/Name' or 'pkg/srv/Name' -> the generated class."""
    package, kind, type_name = name.split('/')
    return getattr(importlib.import_module(f'{package}.{kind}'), type_name)


def fields(cls):
    """[(field name, rosidl type)] in wire order."""
    return list(zip(cls.get_fields_and_field_types().keys(), cls.SLOT_TYPES))


def integer_limits(typename):
    bits, signed = INTEGER_BITS[typename]
    if signed:
        return -(1 << (bits - 1)), (1 << (bits - 1)) - 1
    return 0, (1 << bits) - 1


def basic_value(typename, k):
    """Return a value different from the field default, and near the type's edge for integers."""
    if typename == 'boolean':
        return True
    if typename == 'octet':
        return bytes([0xA0 + k % 32])
    if typename in ('float', 'double'):
        return -1.25 - k  # exactly representable in float32
    if typename in INTEGER_BITS:
        low, high = integer_limits(typename)
        return low + k if low < 0 else high - k
    raise ValueError(f'no sample value for basic type {typename}')


def sample_value(rosidl_type, k):
    if isinstance(rosidl_type, BasicType):
        return basic_value(rosidl_type.typename, k)
    if isinstance(rosidl_type, AbstractGenericString):
        return f'sample-{k}-\u00fc'  # non-ASCII on purpose: strings are UTF-8 on the wire
    if isinstance(rosidl_type, NamespacedType):
        cls = getattr(importlib.import_module('.'.join(rosidl_type.namespaces)), rosidl_type.name)
        return filled(cls, k)
    if isinstance(rosidl_type, AbstractNestedType):
        size = rosidl_type.size if isinstance(rosidl_type, Array) else SEQUENCE_LENGTH
        return [sample_value(rosidl_type.value_type, k + i) for i in range(size)]
    raise ValueError(f'no sample value for {rosidl_type!r}')


def filled(cls, k=1):
    """Return an instance of cls with a non-default value in every field."""
    msg = cls()
    for i, (name, rosidl_type) in enumerate(fields(cls)):
        setattr(msg, name, sample_value(rosidl_type, k + i))
    return msg
