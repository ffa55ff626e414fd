# SPDX-License-Identifier: Apache-2.0
"""Generated Python classes from 'pkg/msg/Name' / 'pkg/Name' type strings."""

import importlib

from ros2cli_py.errors import CommandError

_WHAT = {'msg': 'message', 'srv': 'service', 'action': 'action'}


def get_type_class(identifier, kind):
    """Import the class of a message/service type (CommandError if it is invalid)."""
    what = _WHAT[kind]
    parts = identifier.split('/')
    valid = all(parts) and (len(parts) == 2 or (len(parts) == 3 and parts[1] == kind))
    if valid:
        try:
            module = importlib.import_module(f'{parts[0]}.{kind}')
            cls = getattr(module, parts[-1])
        except (ImportError, AttributeError, ValueError):
            cls = None
        if kind == 'msg' and hasattr(cls, 'get_fields_and_field_types'):
            return cls
        if kind == 'srv' and hasattr(cls, 'Request') and hasattr(cls, 'Response'):
            return cls
    raise CommandError(f"The passed {what} type is invalid: '{identifier}'")


def type_string(cls):
    """'pkg/msg/Name' of a generated class."""
    module = cls.__module__.split('.')
    return f'{module[0]}/{module[1]}/{cls.__name__}'
