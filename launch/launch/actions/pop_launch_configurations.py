# SPDX-License-Identifier: Apache-2.0
"""PopLaunchConfigurations: restore the launch configurations last pushed."""

from ..action import Action


class PopLaunchConfigurations(Action):
    """Restores the launch configurations saved by the last PushLaunchConfigurations."""

    def execute(self, context) -> None:
        """Pop the configurations."""
        context._pop_launch_configurations()
        return None
