# SPDX-License-Identifier: Apache-2.0
"""OnIncludeLaunchDescription: include the launch description of the event."""

from typing import Optional

from ..event import Event
from ..event_handler import BaseEventHandler
from ..events import IncludeLaunchDescription
from ..some_entities_type import SomeEntitiesType


class OnIncludeLaunchDescription(BaseEventHandler):
    """Returns the launch description of IncludeLaunchDescription events (LaunchService)."""

    def __init__(self, **kwargs) -> None:
        """Create the handler."""
        super().__init__(
            matcher=lambda event: isinstance(event, IncludeLaunchDescription), **kwargs)

    def handle(self, event: Event, context) -> Optional[SomeEntitiesType]:
        """Return the event's launch description."""
        super().handle(event, context)
        assert isinstance(event, IncludeLaunchDescription)
        return event.launch_description
