# SPDX-License-Identifier: Apache-2.0
"""ProcessStdout: data on a process's stdout."""

from typing import Any

from .process_io import ProcessIO


class ProcessStdout(ProcessIO):
    """Data on the process's stdout."""

    name = 'launch.events.process.ProcessStdout'

    def __init__(self, *, text: bytes, **kwargs: Any) -> None:
        """Create the event."""
        super().__init__(text=text, fd=1, **kwargs)
