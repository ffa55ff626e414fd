# SPDX-License-Identifier: Apache-2.0
"""The event handlers of launch."""

from .event_named import event_named
from .on_action_event_base import OnActionEventBase
from .on_execution_complete import OnExecutionComplete
from .on_include_launch_description import OnIncludeLaunchDescription
from .on_process_exit import OnProcessExit
from .on_process_io import OnProcessIO
from .on_process_start import OnProcessStart
from .on_shutdown import OnShutdown

__all__ = [
    'event_named',
    'OnActionEventBase',
    'OnExecutionComplete',
    'OnIncludeLaunchDescription',
    'OnProcessExit',
    'OnProcessIO',
    'OnProcessStart',
    'OnShutdown',
]
