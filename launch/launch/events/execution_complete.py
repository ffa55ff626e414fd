# SPDX-License-Identifier: Apache-2.0
"""ExecutionComplete: an action has finished executing (its future too, if it has one)."""

from typing import TYPE_CHECKING

from ..event import Event

if TYPE_CHECKING:
    from ..action import Action


class ExecutionComplete(Event):
    """Emitted when an action completes."""

    name = 'launch.events.ExecutionComplete'

    def __init__(self, *, action: 'Action') -> None:
        """Create the event for ``action``."""
        self.__action = action

    @property
    def action(self) -> 'Action':
        """Getter for action."""
        return self.__action
