# SPDX-License-Identifier: Apache-2.0
"""EmitEvent: emit an event when executed."""

from typing import Any, TYPE_CHECKING

from ..action import Action
from ..event import Event

if TYPE_CHECKING:
    from ..launch_context import LaunchContext


class EmitEvent(Action):
    """Emits ``event`` when executed."""

    def __init__(self, *, event: Event, **kwargs: Any) -> None:
        """Create the action."""
        super().__init__(**kwargs)
        if not isinstance(event, Event):
            raise RuntimeError(f"EmitEvent() expected an event instance, got '{event}'.")
        self.__event = event

    @property
    def event(self) -> Event:
        """Getter for self.__event."""
        return self.__event

    def execute(self, context: 'LaunchContext') -> None:
        """Queue the event."""
        context.emit_event_sync(self.__event)
        return None
