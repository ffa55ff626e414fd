# SPDX-License-Identifier: Apache-2.0
"""PushLaunchConfigurations: save the launch configurations on a stack."""

from typing import TYPE_CHECKING

from ..action import Action

if TYPE_CHECKING:
    from ..launch_context import LaunchContext


class PushLaunchConfigurations(Action):
    """Saves the launch configurations; PopLaunchConfigurations restores them."""

    def execute(self, context: 'LaunchContext') -> None:
        """Push the configurations."""
        context._push_launch_configurations()
        return None
