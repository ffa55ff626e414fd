# SPDX-License-Identifier: Apache-2.0
"""PopLaunchConfigurations: restore the launch configurations last pushed."""

from typing import TYPE_CHECKING

from ..action import Action

if TYPE_CHECKING:
    from ..launch_context import LaunchContext


class PopLaunchConfigurations(Action):
    """Restores the launch configurations saved by the last PushLaunchConfigurations."""

    def execute(self, context: 'LaunchContext') -> None:
        """Pop the configurations."""
        context._pop_launch_configurations()
        return None
