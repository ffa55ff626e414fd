# SPDX-License-Identifier: Apache-2.0
"""TimerEvent: a TimerAction's period has passed."""

from typing import TYPE_CHECKING

from ..event import Event

if TYPE_CHECKING:
    from ..actions.timer_action import TimerAction


class TimerEvent(Event):
    """Emitted by a TimerAction when its period has passed."""

    name = 'launch.events.TimerEvent'

    def __init__(self, *, timer_action: 'TimerAction') -> None:
        """Create the event."""
        self.__timer_action = timer_action

    @property
    def timer_action(self) -> 'TimerAction':
        """Getter for timer_action."""
        return self.__timer_action
