# SPDX-License-Identifier: Apache-2.0
"""ProcessStderr: data on a process's stderr."""

from typing import Any

from .process_io import ProcessIO


class ProcessStderr(ProcessIO):
    """Data on the process's stderr."""

    name = 'launch.events.process.ProcessStderr'

    def __init__(self, *, text: bytes, **kwargs: Any) -> None:
        """Create the event."""
        super().__init__(text=text, fd=2, **kwargs)
