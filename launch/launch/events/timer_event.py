# SPDX-License-Identifier: Apache-2.0
"""TimerEvent: a TimerAction's period has passed."""

from ..event import Event


class TimerEvent(Event):
    """Emitted by a TimerAction when its period has passed."""

    name = 'launch.events.TimerEvent'

    def __init__(self, *, timer_action) -> None:
        """Create the event."""
        self.__timer_action = timer_action

    @property
    def timer_action(self):
        """Getter for timer_action."""
        return self.__timer_action
