# SPDX-License-Identifier: Apache-2.0
"""PopEnvironment: restore the environment last pushed."""

from typing import TYPE_CHECKING

from ..action import Action

if TYPE_CHECKING:
    from ..launch_context import LaunchContext


class PopEnvironment(Action):
    """Restores the environment saved by the last PushEnvironment."""

    def execute(self, context: 'LaunchContext') -> None:
        """Pop the environment."""
        context._pop_environment()
        return None
