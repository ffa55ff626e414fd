# SPDX-License-Identifier: Apache-2.0
"""PushEnvironment: save the environment on a stack."""

from ..action import Action


class PushEnvironment(Action):
    """Saves the environment; PopEnvironment restores it."""

    def execute(self, context) -> None:
        """Push the environment."""
        context._push_environment()
        return None
