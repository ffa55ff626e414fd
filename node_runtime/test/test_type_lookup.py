# SPDX-License-Identifier: Apache-2.0
"""The one type-string -> class lookup: accepted spellings, refusals, round trip."""

from node_runtime.type_lookup import split_type_name, type_class, type_string, TypeNotFound
import pytest
from std_msgs.msg import String


@pytest.mark.parametrize('name', ['std_msgs/msg/String', 'std_msgs/String'])
def test_a_message_in_either_spelling(name):
    assert type_class(name) is String
    assert type_class(name, 'msg') is String
    assert type_string(String) == 'std_msgs/msg/String'


def test_a_service():
    srv = type_class('rcl_interfaces/srv/GetParameters', 'srv')
    assert srv.__name__ == 'GetParameters' and hasattr(srv, 'Request')
    assert type_string(srv) == 'rcl_interfaces/srv/GetParameters'


@pytest.mark.parametrize('name, kind', [
    ('std_msgs', 'msg'), ('std_msgs/', 'msg'), ('/String', 'msg'), ('a/b/c/d', 'msg'),
    ('std_msgs/srv/String', 'msg'),         # the kind in the name must be the one asked for
    ('std_msgs/msg/String', 'srv'),
])
def test_malformed_names_are_refused(name, kind):
    with pytest.raises(TypeNotFound, match='not a'):
        split_type_name(name, kind)
    with pytest.raises(TypeNotFound):
        type_class(name, kind)


@pytest.mark.parametrize('name, kind', [
    ('std_msgs/msg/Nope', 'msg'), ('no_such_package_xyz/msg/A', 'msg'),
    ('std_msgs/Nope', 'msg'), ('rcl_interfaces/srv/Nope', 'srv'),
    ('rcl_interfaces/Parameter', 'srv'),    # exists, but as a message
])
def test_types_not_installed_are_refused(name, kind):
    with pytest.raises(TypeNotFound, match='not installed'):
        type_class(name, kind)


def test_an_unknown_kind_is_a_programming_error():
    with pytest.raises(ValueError):
        type_class('std_msgs/msg/String', 'idl')
