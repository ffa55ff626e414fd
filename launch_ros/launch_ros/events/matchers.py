# SPDX-License-Identifier: Apache-2.0
"""Matchers of Node actions by the node's name."""

from typing import Any, Callable, Text


def _absolute(name: Text) -> Text:
    return name if name.startswith('/') else '/' + name


def matches_node_name(node_name: Text) -> Callable[[Any], bool]:
    """
    Return a matcher of the Node actions whose node is ``node_name``.

    The name is the node's full name (``/namespace/name``); a name without the leading
    slash is taken as absolute. Actions that are not executed yet (no name) do not match.
    """
    wanted = _absolute(node_name)

    def matcher(action: Any) -> bool:
        try:
            name = action.node_name
        except (AttributeError, RuntimeError):
            return False
        return isinstance(name, str) and _absolute(name) == wanted
    return matcher
