# SPDX-License-Identifier: Apache-2.0
"""PopEnvironment: restore the environment last pushed."""

from ..action import Action


class PopEnvironment(Action):
    """Restores the environment saved by the last PushEnvironment."""

    def execute(self, context) -> None:
        """Pop the environment."""
        context._pop_environment()
        return None
