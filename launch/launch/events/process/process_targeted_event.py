# SPDX-License-Identifier: Apache-2.0
"""ProcessTargetedEvent: an event addressed to the processes a matcher selects."""

from typing import Callable

from ...event import Event


class ProcessTargetedEvent(Event):
    """An event for the processes (their actions) ``process_matcher`` returns True for."""

    name = 'launch.events.process.ProcessTargetedEvent'

    def __init__(self, *, process_matcher: Callable[[object], bool]) -> None:
        """Create the event."""
        super().__init__()
        self.__process_matcher = process_matcher

    @property
    def process_matcher(self) -> Callable[[object], bool]:
        """Getter for process_matcher."""
        return self.__process_matcher
