# SPDX-License-Identifier: Apache-2.0
"""ExecutionComplete: an action has finished executing (its future too, if it has one)."""

from ..event import Event


class ExecutionComplete(Event):
    """Emitted when an action completes."""

    name = 'launch.events.ExecutionComplete'

    def __init__(self, *, action) -> None:
        """Create the event for ``action``."""
        self.__action = action

    @property
    def action(self):
        """Getter for action."""
        return self.__action
