# SPDX-License-Identifier: Apache-2.0
"""ProcessExited: a process has exited."""

from typing import Any

from .running_process_event import RunningProcessEvent


class ProcessExited(RunningProcessEvent):
    """Emitted when a process exits; ``returncode`` (negative: the signal that ended it)."""

    name = 'launch.events.process.ProcessExited'

    def __init__(self, *, returncode: int, **kwargs: Any) -> None:
        """Create the event."""
        super().__init__(**kwargs)
        self.__returncode = returncode

    @property
    def returncode(self) -> int:
        """Getter for returncode."""
        return self.__returncode
