# SPDX-License-Identifier: Apache-2.0
"""UnregisterEventHandler: unregister an event handler when executed."""

from typing import Any, TYPE_CHECKING

from ..action import Action
from ..event_handler import BaseEventHandler

if TYPE_CHECKING:
    from ..launch_context import LaunchContext


class UnregisterEventHandler(Action):
    """Unregisters ``event_handler`` when executed (ValueError if it is not registered)."""

    def __init__(self, event_handler: BaseEventHandler, **kwargs: Any) -> None:
        """Create the action."""
        super().__init__(**kwargs)
        self.__event_handler = event_handler

    @property
    def event_handler(self) -> BaseEventHandler:
        """Getter for self.__event_handler."""
        return self.__event_handler

    def execute(self, context: 'LaunchContext') -> None:
        """Unregister the handler."""
        context.unregister_event_handler(self.__event_handler)
        return None
