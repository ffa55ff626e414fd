# SPDX-License-Identifier: Apache-2.0
"""The Event class: what launch emits and event handlers react to."""

from typing import Text


class Event:
    """Base of the events of the launch system."""

    name = 'launch.Event'

    def __str__(self) -> Text:
        """Return the name of the event type."""
        return self.name
