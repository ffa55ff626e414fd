# SPDX-License-Identifier: Apache-2.0
"""ProcessStarted: a process has been started."""

from .running_process_event import RunningProcessEvent


class ProcessStarted(RunningProcessEvent):
    """Emitted when a process starts."""

    name = 'launch.events.process.ProcessStarted'
