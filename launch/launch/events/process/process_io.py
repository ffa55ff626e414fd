# SPDX-License-Identifier: Apache-2.0
"""ProcessIO: data on one of a process's standard streams."""

from typing import Any

from .running_process_event import RunningProcessEvent


class ProcessIO(RunningProcessEvent):
    """``text`` (bytes) read from (stdout, stderr) or for (stdin) the file descriptor ``fd``."""

    name = 'launch.events.process.ProcessIO'

    def __init__(self, *, text: bytes, fd: int, **kwargs: Any) -> None:
        """Create the event."""
        super().__init__(**kwargs)
        self.__text = text
        self.__from_stdin = fd == 0
        self.__from_stdout = fd == 1
        self.__from_stderr = fd == 2

    @property
    def text(self) -> bytes:
        """Getter for text."""
        return self.__text

    @property
    def from_stdin(self) -> bool:
        """Getter for from_stdin."""
        return self.__from_stdin

    @property
    def from_stdout(self) -> bool:
        """Getter for from_stdout."""
        return self.__from_stdout

    @property
    def from_stderr(self) -> bool:
        """Getter for from_stderr."""
        return self.__from_stderr
