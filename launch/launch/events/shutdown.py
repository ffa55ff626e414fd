# SPDX-License-Identifier: Apache-2.0
"""Shutdown: the launch is ending."""

from typing import Text

from ..event import Event


class Shutdown(Event):
    """Emitted to shut the launch down; ``due_to_sigint`` when Ctrl-C asked for it."""

    name = 'launch.events.Shutdown'

    def __init__(self, *, reason: Text = 'reason not given',
                 due_to_sigint: bool = False) -> None:
        """Create the event."""
        self.__reason = reason
        self.__due_to_sigint = due_to_sigint

    @property
    def reason(self) -> Text:
        """Getter for reason."""
        return self.__reason

    @property
    def due_to_sigint(self) -> bool:
        """Getter for due_to_sigint."""
        return self.__due_to_sigint
