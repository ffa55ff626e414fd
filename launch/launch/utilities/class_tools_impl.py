# SPDX-License-Identifier: Apache-2.0
"""isclassinstance, is_a, is_a_subclass: type checks that accept classes and instances."""

import inspect
from typing import Any


def isclassinstance(obj: object) -> bool:
    """Return True if ``obj`` is an instance of a class (not a class itself)."""
    return hasattr(obj, '__class__') and not inspect.isclass(obj)


def is_a(obj: object, entity_type: type) -> bool:
    """Return True if ``obj`` is an instance of ``entity_type``."""
    if not isclassinstance(obj):
        raise RuntimeError(f"obj '{obj}' is not a class instance")
    if not inspect.isclass(entity_type):
        raise RuntimeError(f"entity_type '{entity_type}' is not a class")
    return isinstance(obj, entity_type)


def is_a_subclass(obj: Any, entity_type: type) -> bool:
    """Return True if ``obj`` is ``entity_type``, a subclass of it, or an instance of one."""
    if isclassinstance(obj):
        return isinstance(obj, entity_type)
    return issubclass(obj, entity_type)
