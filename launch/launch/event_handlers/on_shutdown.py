# SPDX-License-Identifier: Apache-2.0
"""OnShutdown: handle the Shutdown event."""

from typing import Any, Callable, List, Optional, Text, Tuple, TYPE_CHECKING, Union

from ..event import Event
from ..event_handler import BaseEventHandler
from ..events import Shutdown
from ..launch_description_entity import LaunchDescriptionEntity
from ..some_entities_type import SomeEntitiesType

if TYPE_CHECKING:
    from ..launch_context import LaunchContext


class OnShutdown(BaseEventHandler):
    """On shutdown, do ``on_shutdown``: entities, or a callable ``(event, context)``."""

    def __init__(self, *, on_shutdown: Union[SomeEntitiesType, Callable[..., Optional[
            SomeEntitiesType]]], **kwargs: Any) -> None:
        """Create the handler."""
        super().__init__(matcher=lambda event: isinstance(event, Shutdown), **kwargs)
        self.__on_shutdown = on_shutdown

    def handle(self, event: Event, context: 'LaunchContext') -> Optional[SomeEntitiesType]:
        """Return the entities, or what the callable returns."""
        super().handle(event, context)
        if callable(self.__on_shutdown) and \
                not isinstance(self.__on_shutdown, LaunchDescriptionEntity):
            return self.__on_shutdown(event, context)
        return self.__on_shutdown

    def describe(self) -> Tuple[Text, List[SomeEntitiesType]]:
        """Return the description and the entities of the handler."""
        text, entities = super().describe()
        if isinstance(self.__on_shutdown, LaunchDescriptionEntity):
            entities.append(self.__on_shutdown)
        elif isinstance(self.__on_shutdown, (list, tuple)):
            entities.extend(self.__on_shutdown)
        return text, entities

    @property
    def handler_description(self) -> Text:
        """Return a description of what the handler does."""
        if callable(self.__on_shutdown) and \
                not isinstance(self.__on_shutdown, LaunchDescriptionEntity):
            return f'{self.__on_shutdown}'
        return '<actions>'

    @property
    def matcher_description(self) -> Text:
        """Return a description of what the handler matches."""
        return 'event == Shutdown'
