# SPDX-License-Identifier: Apache-2.0
"""Namespaces: absolute forms, prefixing, and the ROS name rules."""

import re
from typing import Optional, Text

_TOKEN = r'[A-Za-z_][A-Za-z0-9_]*'
_NODE_NAME = re.compile(r'^[A-Za-z_][A-Za-z0-9_]*$')
_NAMESPACE = re.compile(rf'^/$|^(/{_TOKEN})+$')


def is_root_namespace(ns: Text) -> bool:
    """Return True for '/'."""
    return ns == '/'


def is_namespace_absolute(ns: Text) -> bool:
    """Return True if ``ns`` starts with '/'."""
    return ns.startswith('/')


def make_namespace_absolute(ns: Optional[Text]) -> Optional[Text]:
    """Return ``ns`` with a leading '/' (None stays None)."""
    if ns is None or is_namespace_absolute(ns):
        return ns
    return '/' + ns


def prefix_namespace(base_ns: Optional[Text], ns: Optional[Text]) -> Optional[Text]:
    """Return ``ns`` inside ``base_ns`` (an absolute ``ns`` stays as it is)."""
    if base_ns is None:
        return ns
    if ns is None:
        return base_ns
    if is_namespace_absolute(ns):
        return ns
    if not ns:
        return base_ns
    return (base_ns.rstrip('/') + '/' + ns) if not is_root_namespace(base_ns) else '/' + ns


def validate_node_name(name: Text) -> None:
    """Raise ValueError unless ``name`` is a valid ROS node name."""
    if not _NODE_NAME.match(name):
        raise ValueError(f"Invalid node name '{name}': node names must start with a letter or "
                         "'_' and contain only letters, digits and '_'")


def validate_namespace(namespace: Text) -> None:
    """Raise ValueError unless ``namespace`` is a valid absolute ROS namespace."""
    if not _NAMESPACE.match(namespace):
        raise ValueError(f"Invalid namespace '{namespace}': a namespace is '/' or '/'-separated "
                         "tokens of letters, digits and '_' not starting with a digit, "
                         "without a trailing '/'")
