# SPDX-License-Identifier: Apache-2.0
"""PushLaunchConfigurations: save the launch configurations on a stack."""

from ..action import Action


class PushLaunchConfigurations(Action):
    """Saves the launch configurations; PopLaunchConfigurations restores them."""

    def execute(self, context) -> None:
        """Push the configurations."""
        context._push_launch_configurations()
        return None
