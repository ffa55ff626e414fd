# SPDX-License-Identifier: Apache-2.0
"""
Every generated message/service class against the spec.

Checked: field names, types and order,
constants, serialization round trips (default and filled), type checks on assignment, and
registration in the ament index (what `ros2 interface list/show` read).
"""

import math
import os
import subprocess
import sys

from ament_index_python import get_resource
from interface_spec import CONSTANTS, MESSAGES, PACKAGES, SERVICES
from interface_values import fields, filled, import_type, INTEGER_BITS, integer_limits
import pytest
from rclpy.serialization import deserialize_message, serialize_message
from rosidl_parser.definition import AbstractGenericString, AbstractNestedType, Array, BasicType


def message_classes():
    """(name, class) of every message, including service requests and responses."""
    out = [(name, import_type(name)) for name in sorted(MESSAGES)]
    for name in sorted(SERVICES):
        srv = import_type(name)
        out += [(name + '_Request', srv.Request), (name + '_Response', srv.Response)]
    return out


MESSAGE_CLASSES = message_classes()
IDS = [name for name, _ in MESSAGE_CLASSES]


@pytest.mark.parametrize('name', sorted(MESSAGES))
def test_message_fields_match_spec(name):
    actual = list(import_type(name).get_fields_and_field_types().items())
    assert actual == MESSAGES[name], (
        f'{name}: fields (name, type) in wire order differ from the spec')


@pytest.mark.parametrize('name', sorted(SERVICES))
def test_service_fields_match_spec(name):
    srv = import_type(name)
    request, response = SERVICES[name]
    assert list(srv.Request.get_fields_and_field_types().items()) == request
    assert list(srv.Response.get_fields_and_field_types().items()) == response


@pytest.mark.parametrize('name', sorted(CONSTANTS))
def test_constants_have_spec_values(name):
    cls = import_type(name)
    for constant, value in CONSTANTS[name].items():
        actual = getattr(cls, constant)
        if isinstance(actual, bytes):  # `byte` constants are 1-byte bytes in Python
            actual = int.from_bytes(actual, 'little')
        assert actual == value, f'{name}.{constant}'


@pytest.mark.parametrize('name,cls', MESSAGE_CLASSES, ids=IDS)
def test_default_instance_round_trips(name, cls):
    msg = cls()
    data = serialize_message(msg)
    assert deserialize_message(data, cls) == msg


@pytest.mark.parametrize('name,cls', MESSAGE_CLASSES, ids=IDS)
def test_filled_instance_round_trips_exactly(name, cls):
    msg = filled(cls)
    assert msg != cls(), 'the filled instance must differ from the default one'
    back = deserialize_message(serialize_message(msg), cls)
    assert back == msg
    # Every single field, so that a failure names the field.
    for field, _ in fields(cls):
        assert same(getattr(back, field), getattr(msg, field)), f'{name}.{field}'


def same(a, b):
    """Equality for field values, numpy arrays (fixed-size numeric arrays) included."""
    equal = a == b
    return bool(equal.all()) if hasattr(equal, 'all') else bool(equal)


def wrong_values(rosidl_type):
    """Values a field of this type must refuse."""
    if isinstance(rosidl_type, BasicType):
        t = rosidl_type.typename
        if t in INTEGER_BITS:
            low, high = integer_limits(t)
            return ['text', 1.5, high + 1, low - 1]
        if t == 'float':
            return ['text', 1e39]  # beyond float32's range
        if t == 'double':
            return ['text']
        if t == 'boolean':
            return ['text', 1]
        if t == 'octet':
            return [b'ab', 300]
        return ['text']
    if isinstance(rosidl_type, Array):
        return [[0] * (rosidl_type.size + 1), 'text']
    if isinstance(rosidl_type, AbstractNestedType):
        return [object(), ['text', object()] if not _is_string(rosidl_type.value_type) else [1, 2]]
    if _is_string(rosidl_type):
        return [1, b'bytes']
    return [object(), 1]


def _is_string(rosidl_type):
    return isinstance(rosidl_type, AbstractGenericString)


@pytest.mark.parametrize('name,cls', MESSAGE_CLASSES, ids=IDS)
def test_wrong_type_or_out_of_range_assignment_raises(name, cls):
    # Since Iron the generated setters check only when asked: check_fields=True or
    # ROS_PYTHON_CHECK_FIELDS=1 (README: turn it on while developing a node).
    accepted = []
    for field, rosidl_type in fields(cls):
        for bad in wrong_values(rosidl_type):
            try:
                setattr(cls(check_fields=True), field, bad)
            except (AssertionError, TypeError, ValueError):
                continue
            accepted.append(f'{field}={bad!r}')
    assert not accepted, f'{name} accepted: {accepted}'


def test_check_fields_environment_variable_turns_checks_on():
    # Unchecked, a wrong value is serialized as 0 without a word; ROS_PYTHON_CHECK_FIELDS=1
    # (which the workspace's test runs set, and the README recommends while developing)
    # makes every default-constructed message check its fields.
    code = ('from hb50_commons.msg import BridgeState\n'
            'm = BridgeState()\n'
            'try:\n    m.bus_v = "text"\nexcept AssertionError:\n    raise SystemExit(3)\n')
    env = dict(os.environ, ROS_PYTHON_CHECK_FIELDS='1')
    assert subprocess.run([sys.executable, '-c', code], env=env, timeout=60).returncode == 3
    env['ROS_PYTHON_CHECK_FIELDS'] = '0'
    assert subprocess.run([sys.executable, '-c', code], env=env, timeout=60).returncode == 0


def test_float32_fields_keep_infinity_and_nan():
    # The validators must refuse out-of-range finite values but keep IEEE specials, which
    # nodes test for (e.g. HB50 bridge_node rejects NaN commands itself).
    cls = import_type('pnd_adam/msg/MotorCmd')
    msg = cls(q=float('inf'), dq=float('nan'))
    back = deserialize_message(serialize_message(msg), cls)
    assert math.isinf(back.q) and math.isnan(back.dq)


@pytest.mark.parametrize('package', PACKAGES)
def test_every_interface_is_in_the_ament_index(package):
    content, _ = get_resource('rosidl_interfaces', package)
    registered = set(content.split())
    spec = [n for n in list(MESSAGES) + list(SERVICES) if n.startswith(package + '/')]
    assert spec, package
    for name in spec:
        _, kind, type_name = name.split('/')
        ext = 'msg' if kind == 'msg' else 'srv'
        assert f'{kind}/{type_name}.idl' in registered, name
        assert f'{kind}/{type_name}.{ext}' in registered, name
    # Nothing registered that the spec does not know.
    names = {entry.rsplit('.', 1)[0] for entry in registered}
    assert names == {n.split('/', 1)[1] for n in spec}
