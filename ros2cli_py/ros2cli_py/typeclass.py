# SPDX-License-Identifier: Apache-2.0
"""ros2cli's wording over the workspace's one type lookup (`node_runtime.type_lookup`)."""

from typing import Any

from node_runtime.type_lookup import type_class
from node_runtime.type_lookup import type_string
from node_runtime.type_lookup import TypeNotFound

from ros2cli_py.errors import CommandError

__all__ = ['get_type_class', 'type_string']

_WHAT = {'msg': 'message', 'srv': 'service', 'action': 'action'}


def get_type_class(identifier: str, kind: str) -> Any:
    """Import the class of a message/service type (CommandError if it is invalid)."""
    try:
        return type_class(identifier, kind)
    except TypeNotFound:
        raise CommandError(f"The passed {_WHAT[kind]} type is invalid: '{identifier}'") from None
