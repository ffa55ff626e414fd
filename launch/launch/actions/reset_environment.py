# SPDX-License-Identifier: Apache-2.0
"""ResetEnvironment: back to the environment launch started with."""

from ..action import Action


class ResetEnvironment(Action):
    """Restores the environment launch started with (when its LaunchContext was created)."""

    def execute(self, context) -> None:
        """Reset the environment."""
        context._reset_environment()
        return None
