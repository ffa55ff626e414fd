# SPDX-License-Identifier: Apache-2.0
"""Conversions of frontend attribute values to the types the parse methods ask for."""

import typing
from typing import Any, List, Text

import yaml

_SCALARS = (str, int, float, bool)


def is_list_type(data_type: Any) -> bool:
    """Return True for typing.List[...]."""
    return typing.get_origin(data_type) in (list, List)


def list_item_type(data_type: Any) -> Any:
    """Return X of List[X]."""
    args = typing.get_args(data_type)
    return args[0] if args else str


def coerce_scalar(value: Any, data_type: Any, name: Text, where: Text) -> Any:
    """Return ``value`` as ``data_type`` (text parsed like YAML), ValueError naming it."""
    if data_type is None:
        if isinstance(value, str):
            try:
                return yaml.safe_load(value)
            except yaml.YAMLError:
                return value
        return value
    if isinstance(value, data_type) and not (data_type is int and isinstance(value, bool)):
        return value
    if isinstance(value, str):
        if data_type is bool:
            lowered = value.strip().lower()
            if lowered in ('true', '1', 'yes', 'on'):      # YAML 1.1's words, as upstream
                return True
            if lowered in ('false', '0', 'no', 'off'):
                return False
        else:
            try:
                return data_type(value)
            except ValueError:
                pass
    elif data_type is float and isinstance(value, int) and not isinstance(value, bool):
        return float(value)
    elif data_type is str and isinstance(value, _SCALARS):
        return str(value).lower() if isinstance(value, bool) else str(value)
    raise ValueError(f"{where}: attribute '{name}' must be of type "
                     f"'{getattr(data_type, '__name__', data_type)}', got '{value}'")
