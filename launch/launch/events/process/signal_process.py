# SPDX-License-Identifier: Apache-2.0
"""SignalProcess: send a signal to processes."""

import signal as signal_module
from typing import Callable, Text, Union

from .process_targeted_event import ProcessTargetedEvent


class SignalProcess(ProcessTargetedEvent):
    """Send ``signal_number`` (a signal, or its name like 'SIGKILL') to matched processes."""

    name = 'launch.events.process.SignalProcess'

    def __init__(self, *, signal_number: Union[int, Text],
                 process_matcher: Callable[[object], bool]) -> None:
        """Create the event."""
        super().__init__(process_matcher=process_matcher)
        number: int = getattr(signal_module, signal_number) \
            if isinstance(signal_number, str) else signal_number
        self.__signal = signal_module.Signals(number)

    @property
    def signal(self) -> signal_module.Signals:
        """Getter for the signal."""
        return self.__signal

    @property
    def signal_name(self) -> Text:
        """Getter for the signal's name."""
        return self.__signal.name
