# SPDX-License-Identifier: Apache-2.0
"""
The one type-string -> generated class lookup ('pkg/msg/Name', 'pkg/srv/Name', 'pkg/Name').

Used by `ros2 topic` / `ros2 service`, the bag recorder/reader and the Foxglove server. A type
string has two or three non-empty parts separated by '/', the middle one (if any) being the
interface kind; the class comes from the installed `<pkg>.<kind>` module.
"""

import importlib
from typing import Any, Tuple

KINDS = ('msg', 'srv', 'action')


class TypeNotFound(LookupError):
    """A type string that is malformed or names no installed interface of its kind."""


def split_type_name(identifier: str, kind: str = 'msg') -> Tuple[str, str]:
    """Return (package, name) of 'pkg/<kind>/Name' or 'pkg/Name' (TypeNotFound otherwise)."""
    if kind not in KINDS:
        raise ValueError(f'kind must be one of {KINDS}, not {kind!r}')
    parts = str(identifier).split('/')
    if all(parts) and (len(parts) == 2 or (len(parts) == 3 and parts[1] == kind)):
        return parts[0], parts[-1]
    raise TypeNotFound(f'not a {kind} type name: {identifier!r}')


def _is_kind(cls: Any, kind: str) -> bool:
    if kind == 'msg':
        return hasattr(cls, 'get_fields_and_field_types')
    if kind == 'srv':
        return hasattr(cls, 'Request') and hasattr(cls, 'Response')
    return hasattr(cls, 'Goal') and hasattr(cls, 'Result') and hasattr(cls, 'Feedback')


def type_class(identifier: str, kind: str = 'msg') -> Any:
    """Import the generated class of a message/service/action type (TypeNotFound if none)."""
    package, name = split_type_name(identifier, kind)
    try:
        cls = getattr(importlib.import_module(f'{package}.{kind}'), name)
    except (ImportError, AttributeError, ValueError):
        cls = None
    if cls is None or not _is_kind(cls, kind):
        raise TypeNotFound(f'{kind} type {identifier} is not installed')
    return cls


def type_string(cls: Any) -> str:
    """Return 'pkg/<kind>/Name' of a generated class."""
    module = cls.__module__.split('.')
    return f'{module[0]}/{module[1]}/{cls.__name__}'
