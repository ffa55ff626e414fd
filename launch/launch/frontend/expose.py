# SPDX-License-Identifier: Apache-2.0
"""expose_action, expose_substitution: make a class usable from frontend launch files."""

from typing import Callable, Dict, Text

action_parse_methods: Dict[Text, Callable] = {}
substitution_parse_methods: Dict[Text, Callable] = {}


def expose_action(name: Text) -> Callable[[type], type]:
    """Register the class's ``parse(entity, parser) -> (cls, kwargs)`` for the tag ``name``."""
    def register(cls: type) -> type:
        if name in action_parse_methods and action_parse_methods[name] != cls.parse:
            raise RuntimeError(f"an action is already exposed with the name '{name}'")
        action_parse_methods[name] = cls.parse          # type: ignore[attr-defined]
        return cls
    return register


def expose_substitution(name: Text) -> Callable[[type], type]:
    """Register the class's ``parse(data) -> (cls, kwargs)`` for ``$(name ...)``."""
    def register(cls: type) -> type:
        if name in substitution_parse_methods and \
                substitution_parse_methods[name] != cls.parse:
            raise RuntimeError(f"a substitution is already exposed with the name '{name}'")
        substitution_parse_methods[name] = cls.parse    # type: ignore[attr-defined]
        return cls
    return register


def instantiate_action(entity, parser):
    """Return the action an entity describes."""
    method = action_parse_methods.get(entity.type_name)
    if method is None:
        raise ValueError(f"{entity.describe_location()}: unknown tag '{entity.type_name}'")
    cls, kwargs = method(entity, parser)
    entity.assert_entity_completely_parsed()
    return cls(**kwargs)


def instantiate_substitution(name: Text, data):
    """Return the substitution ``$(name ...)`` with the parsed arguments ``data``."""
    method = substitution_parse_methods.get(name)
    if method is None:
        raise ValueError(f"unknown substitution '$({name} ...)'")
    cls, kwargs = method(data)
    return cls(**kwargs)
