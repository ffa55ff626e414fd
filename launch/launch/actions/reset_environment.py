# SPDX-License-Identifier: Apache-2.0
"""ResetEnvironment: back to the environment launch started with."""

from typing import TYPE_CHECKING

from ..action import Action

if TYPE_CHECKING:
    from ..launch_context import LaunchContext


class ResetEnvironment(Action):
    """Restores the environment launch started with (when its LaunchContext was created)."""

    def execute(self, context: 'LaunchContext') -> None:
        """Reset the environment."""
        context._reset_environment()
        return None
