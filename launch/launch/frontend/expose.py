# SPDX-License-Identifier: Apache-2.0
"""expose_action, expose_substitution: make a class usable from frontend launch files."""

from typing import Any, Callable, cast, Dict, List, Text, Tuple, TYPE_CHECKING

if TYPE_CHECKING:
    from .entity import Entity
    from .parser import Parser
    from ..action import Action
    from ..substitution import Substitution

# A parse method: ``parse(entity, parser)`` of an action, ``parse(data)`` of a substitution,
# returning (class, keyword arguments). The classes come from launch extensions (entry points).
ParseMethod = Callable[..., Tuple[Any, Dict[str, Any]]]

action_parse_methods: Dict[Text, ParseMethod] = {}
substitution_parse_methods: Dict[Text, ParseMethod] = {}


def _parse_method(name: Text, exposed: Any, kind: Text) -> ParseMethod:
    """Return the parse method of a class, or the callable itself (upstream's two forms)."""
    if isinstance(exposed, type) and callable(getattr(exposed, 'parse', None)):
        method: ParseMethod = getattr(exposed, 'parse')
        return method
    if callable(exposed) and not isinstance(exposed, type):
        return cast(ParseMethod, exposed)
    raise RuntimeError(f'Exposed {kind} parser for {name} is not a callable or a class '
                       'containing a parse method')


def _expose(name: Text, register: Dict[Text, ParseMethod], kind: Text) -> Callable[[Any], Any]:
    def decorator(exposed: Any) -> Any:
        method = _parse_method(name, exposed, kind)
        if name in register and register[name] != method:
            raise RuntimeError(f"an {kind} is already exposed with the name '{name}'")
        register[name] = method
        return exposed
    return decorator


def expose_action(name: Text) -> Callable[[Any], Any]:
    """
    Register a parse method for the tag ``name``: ``parse(entity, parser) -> (cls, kwargs)``.

    Decorates a class (its ``parse`` class method) or a function with that signature.
    """
    return _expose(name, action_parse_methods, 'action')


def expose_substitution(name: Text) -> Callable[[Any], Any]:
    """
    Register a parse method for ``$(name ...)``: ``parse(data) -> (cls, kwargs)``.

    Decorates a class (its ``parse`` class method) or a function with that signature.
    """
    return _expose(name, substitution_parse_methods, 'substitution')


def instantiate_action(entity: 'Entity', parser: 'Parser') -> 'Action':
    """Return the action an entity describes."""
    method = action_parse_methods.get(entity.type_name)
    if method is None:
        raise ValueError(f"{entity.describe_location()}: unknown tag '{entity.type_name}'")
    cls, kwargs = method(entity, parser)
    entity.assert_entity_completely_parsed()
    action: 'Action' = cls(**kwargs)
    return action


def instantiate_substitution(name: Text, data: List[List['Substitution']]) -> 'Substitution':
    """Return the substitution ``$(name ...)`` with the parsed arguments ``data``."""
    method = substitution_parse_methods.get(name)
    if method is None:
        raise ValueError(f"unknown substitution '$({name} ...)'")
    cls, kwargs = method(data)
    substitution: 'Substitution' = cls(**kwargs)
    return substitution
