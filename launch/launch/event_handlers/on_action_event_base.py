# SPDX-License-Identifier: Apache-2.0
"""OnActionEventBase: handle one kind of event of one action, or of any action."""

import collections.abc
from typing import Any, Callable, List, Optional, Text, Tuple, Type, TYPE_CHECKING, Union

from ..event import Event
from ..event_handler import BaseEventHandler
from ..launch_description_entity import LaunchDescriptionEntity
from ..some_entities_type import SomeEntitiesType

if TYPE_CHECKING:
    from ..action import Action
    from ..launch_context import LaunchContext


class OnActionEventBase(BaseEventHandler):
    """
    Matches events of ``target_event_cls`` whose action matches ``action_matcher``.

    ``action_matcher``: an action (that one only), a callable of the action, or None (any).
    ``on_event``: entities to return, or a callable ``(event, context)`` returning them.
    """

    def __init__(self, *, action_matcher: Optional[Union[Callable[[Any], bool], 'Action']],
                 on_event: Union[SomeEntitiesType, Callable[..., Optional[SomeEntitiesType]]],
                 target_event_cls: Type[Event],
                 target_action_cls: type, **kwargs: Any) -> None:
        """Create the handler."""
        if not (isinstance(target_event_cls, type) and issubclass(target_event_cls, Event)):
            raise TypeError("'target_event_cls' must be a subclass of 'Event'")
        if action_matcher is not None and not isinstance(action_matcher, target_action_cls) \
                and not callable(action_matcher):
            raise TypeError(f"action_matcher must be an '{target_action_cls.__name__}' "
                            'instance or a callable')
        self.__target_event_cls = target_event_cls
        self.__target_action_cls = target_action_cls
        self.__action_matcher = action_matcher

        def matcher(event: Event) -> bool:
            if not isinstance(event, target_event_cls):
                return False
            if callable(action_matcher):
                return bool(action_matcher(getattr(event, 'action')))
            if isinstance(action_matcher, target_action_cls):
                return getattr(event, 'action') is action_matcher
            return True

        super().__init__(matcher=matcher, **kwargs)
        self.__entities: List[LaunchDescriptionEntity] = []
        self.__on_event: Optional[Callable[..., Optional[SomeEntitiesType]]] = None
        if callable(on_event) and not isinstance(on_event, LaunchDescriptionEntity):
            self.__on_event = on_event
        elif isinstance(on_event, LaunchDescriptionEntity):
            self.__entities = [on_event]
        elif isinstance(on_event, collections.abc.Iterable):
            for entity in on_event:
                if not isinstance(entity, LaunchDescriptionEntity):
                    raise TypeError(
                        "expected all items in 'on_event' iterable to be of type "
                        f"'LaunchDescriptionEntity' but got '{type(entity)}'")
            self.__entities = list(on_event)
        elif on_event is not None:
            raise TypeError('on_event must be entities or a callable')

    def handle(self, event: Event, context: 'LaunchContext') -> Optional[SomeEntitiesType]:
        """Return the entities, or what the callable returns."""
        super().handle(event, context)
        if self.__entities:
            return self.__entities
        if self.__on_event is not None:
            return self._call(self.__on_event, event, context)
        return None

    def _call(
        self, function: Callable[..., Optional[SomeEntitiesType]], event: Event,
        context: 'LaunchContext'
    ) -> Optional[SomeEntitiesType]:
        return function(event, context)

    def describe(self) -> Tuple[Text, List[SomeEntitiesType]]:
        """Return the description and the entities of the handler."""
        text, entities = super().describe()
        return text, entities + list(self.__entities)

    @property
    def handler_description(self) -> Text:
        """Return a description of what the handler does."""
        return '<actions>' if self.__entities else f'{self.__on_event}'

    @property
    def matcher_description(self) -> Text:
        """Return a description of what the handler matches."""
        if self.__action_matcher is None:
            return f'event == {self.__target_event_cls.__name__}'
        return (f'event == {self.__target_event_cls.__name__} and '
                f'{self.__target_action_cls.__name__}(event.action)')
