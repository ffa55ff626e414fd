# SPDX-License-Identifier: Apache-2.0
"""BaseEventHandler and EventHandler: react to the events that match."""

from typing import Callable, List, Optional, Text, Tuple, TYPE_CHECKING

from .event import Event
from .some_entities_type import SomeEntitiesType

if TYPE_CHECKING:
    from .launch_context import LaunchContext


class BaseEventHandler:
    """
    Matches events with ``matcher(event)``; ``handle`` gives the entities to visit.

    With ``handle_once`` the handler unregisters itself the first time it handles an event.
    """

    def __init__(self, *, matcher: Callable[[Event], bool], handle_once: bool = False) -> None:
        """Create the handler."""
        self.__matcher = matcher
        self.__handle_once = handle_once

    @property
    def handle_once(self) -> bool:
        """Getter for handle_once."""
        return self.__handle_once

    @property
    def handler_description(self) -> Optional[Text]:
        """Return a description of what the handler does, or None."""
        return None

    @property
    def matcher_description(self) -> Optional[Text]:
        """Return a description of what the handler matches, or None."""
        return None

    def describe(self) -> Tuple[Text, List[SomeEntitiesType]]:
        """Return the description and the entities of the handler."""
        return (f'{type(self).__name__}(matcher=({self.matcher_description}), '
                f'handler=({self.handler_description}), handle_once={self.handle_once})', [])

    def matches(self, event: Event) -> bool:
        """Return True if the handler handles ``event``."""
        return self.__matcher(event)

    def handle(self, event: Event, context: 'LaunchContext') -> Optional[SomeEntitiesType]:
        """Handle the event: the event is in the context's locals as ``event``."""
        context.extend_locals({'event': event})
        if self.__handle_once:
            context.unregister_event_handler(self)
        return None


class EventHandler(BaseEventHandler):
    """An event handler that returns the given ``entities`` for every matching event."""

    def __init__(self, *, matcher: Callable[[Event], bool],
                 entities: Optional[SomeEntitiesType] = None,
                 handle_once: bool = False) -> None:
        """Create the handler."""
        super().__init__(matcher=matcher, handle_once=handle_once)
        self.__entities = entities

    @property
    def entities(self) -> Optional[SomeEntitiesType]:
        """Getter for entities."""
        return self.__entities

    def describe(self) -> Tuple[Text, List[SomeEntitiesType]]:
        """Return the description and the entities of the handler."""
        text, _ = super().describe()
        entities = self.__entities
        described: List[SomeEntitiesType]
        if entities is None:
            described = []
        elif not isinstance(entities, (list, tuple)):
            described = [entities]
        else:
            described = list(entities)
        return text, described

    def handle(self, event: Event, context: 'LaunchContext') -> Optional[SomeEntitiesType]:
        """Return the entities (after the base class's bookkeeping)."""
        super().handle(event, context)
        return self.__entities
