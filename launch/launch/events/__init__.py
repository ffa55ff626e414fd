# SPDX-License-Identifier: Apache-2.0
"""The events of launch."""

from . import matchers
from . import process
from .execution_complete import ExecutionComplete
from .include_launch_description import IncludeLaunchDescription
from .matchers import matches_action
from .shutdown import Shutdown
from .timer_event import TimerEvent

__all__ = [
    'matchers',
    'process',
    'ExecutionComplete',
    'IncludeLaunchDescription',
    'matches_action',
    'Shutdown',
    'TimerEvent',
]
