# SPDX-License-Identifier: Apache-2.0
"""OnIncludeLaunchDescription: include the launch description of the event."""

from typing import Any, Optional, TYPE_CHECKING

from ..event import Event
from ..event_handler import BaseEventHandler
from ..events import IncludeLaunchDescription
from ..some_entities_type import SomeEntitiesType

if TYPE_CHECKING:
    from ..launch_context import LaunchContext


class OnIncludeLaunchDescription(BaseEventHandler):
    """Returns the launch description of IncludeLaunchDescription events (LaunchService)."""

    def __init__(self, **kwargs: Any) -> None:
        """Create the handler."""
        super().__init__(
            matcher=lambda event: isinstance(event, IncludeLaunchDescription), **kwargs)

    def handle(self, event: Event, context: 'LaunchContext') -> Optional[SomeEntitiesType]:
        """Return the event's launch description."""
        super().handle(event, context)
        assert isinstance(event, IncludeLaunchDescription)
        return event.launch_description
