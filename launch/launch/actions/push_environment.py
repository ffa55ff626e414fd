# SPDX-License-Identifier: Apache-2.0
"""PushEnvironment: save the environment on a stack."""

from typing import TYPE_CHECKING

from ..action import Action

if TYPE_CHECKING:
    from ..launch_context import LaunchContext


class PushEnvironment(Action):
    """Saves the environment; PopEnvironment restores it."""

    def execute(self, context: 'LaunchContext') -> None:
        """Push the environment."""
        context._push_environment()
        return None
