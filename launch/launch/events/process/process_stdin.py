# SPDX-License-Identifier: Apache-2.0
"""ProcessStdin: data on a process's stdin."""

from typing import Any

from .process_io import ProcessIO


class ProcessStdin(ProcessIO):
    """Data on the process's stdin."""

    name = 'launch.events.process.ProcessStdin'

    def __init__(self, *, text: bytes, **kwargs: Any) -> None:
        """Create the event."""
        super().__init__(text=text, fd=0, **kwargs)
