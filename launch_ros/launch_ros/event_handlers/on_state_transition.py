# SPDX-License-Identifier: Apache-2.0
"""OnStateTransition: handle the StateTransition events of lifecycle nodes."""

from typing import Any, Callable, Optional, Text

from launch.event import Event
from launch.event_handler import EventHandler
from launch.some_entities_type import SomeEntitiesType
from launch.some_substitutions_type import SomeSubstitutionsType

from ..events.lifecycle import StateTransition


def _text(value: Optional[SomeSubstitutionsType]) -> Optional[Text]:
    """Return a plain string (or None); a substitution is performed on a bare context."""
    if value is None or isinstance(value, str):
        return value
    from launch import LaunchContext
    from launch.utilities import normalize_to_list_of_substitutions, perform_substitutions
    return perform_substitutions(LaunchContext(), normalize_to_list_of_substitutions(value))


class OnStateTransition(EventHandler):
    """
    Returns ``entities`` for the StateTransition events that match.

    Each of ``target_lifecycle_node`` (the LifecycleNode action), ``transition``,
    ``start_state`` and ``goal_state`` (labels, e.g. ``'configuring'``, ``'inactive'``)
    that is not None must match the event. A ``matcher`` replaces all of them.
    """

    def __init__(self, *, entities: SomeEntitiesType,
                 target_lifecycle_node: Any = None,
                 transition: Optional[SomeSubstitutionsType] = None,
                 start_state: Optional[SomeSubstitutionsType] = None,
                 goal_state: Optional[SomeSubstitutionsType] = None,
                 matcher: Optional[Callable[[Event], bool]] = None,
                 **kwargs: Any) -> None:
        """Create the handler."""
        from ..actions.lifecycle_node import LifecycleNode
        if target_lifecycle_node is not None and \
                not isinstance(target_lifecycle_node, LifecycleNode):
            raise RuntimeError("OnStateTransition requires a 'LifecycleNode' action as the target")
        wanted = {'transition': _text(transition), 'start_state': _text(start_state),
                  'goal_state': _text(goal_state)}

        def default_matcher(event: Event) -> bool:
            if not isinstance(event, StateTransition):
                return False
            if target_lifecycle_node is not None and event.action is not target_lifecycle_node:
                return False
            return all(value is None or getattr(event, key) == value
                       for key, value in wanted.items())

        super().__init__(matcher=matcher if matcher is not None else default_matcher,
                         entities=entities, **kwargs)
        self.__target_lifecycle_node = target_lifecycle_node
        self.__wanted = wanted

    @property
    def handler_description(self) -> Text:
        """Return a description of what the handler does."""
        return '<actions>'

    @property
    def matcher_description(self) -> Text:
        """Return a description of what the handler matches."""
        text = 'event == StateTransition'
        if self.__target_lifecycle_node is not None:
            text += f' and event.action == LifecycleNode({id(self.__target_lifecycle_node)})'
        for key, value in self.__wanted.items():
            if value is not None:
                text += f" and event.{key} == '{value}'"
        return text
