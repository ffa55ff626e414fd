# SPDX-License-Identifier: Apache-2.0
"""The event handlers of launch_ros."""

from .on_state_transition import OnStateTransition

__all__ = [
    'OnStateTransition',
]
