# SPDX-License-Identifier: Apache-2.0
"""RegisterEventHandler: register an event handler when executed."""

from typing import Any, cast, Iterable, List, Text, Tuple, TYPE_CHECKING

from ..action import Action
from ..event_handler import BaseEventHandler
from ..launch_description_entity import LaunchDescriptionEntity

if TYPE_CHECKING:
    from ..launch_context import LaunchContext


class RegisterEventHandler(Action):
    """Registers ``event_handler`` in the launch context when executed."""

    def __init__(self, event_handler: BaseEventHandler, **kwargs: Any) -> None:
        """Create the action."""
        super().__init__(**kwargs)
        self.__event_handler = event_handler

    @property
    def event_handler(self) -> BaseEventHandler:
        """Getter for self.__event_handler."""
        return self.__event_handler

    def execute(self, context: 'LaunchContext') -> None:
        """Register the handler."""
        context.register_event_handler(self.__event_handler)
        return None

    def describe_conditional_sub_entities(
        self
    ) -> List[Tuple[Text, Iterable[LaunchDescriptionEntity]]]:
        """Return the handler's entities (used only when its events happen)."""
        text, entities = self.__event_handler.describe()
        # the handlers describe their entities one by one (a list of entities)
        return [(text, cast(List[LaunchDescriptionEntity], entities))] if entities else []
