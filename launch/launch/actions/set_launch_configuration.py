# SPDX-License-Identifier: Apache-2.0
"""SetLaunchConfiguration: set a launch configuration when executed."""

from typing import TYPE_CHECKING

from ._name_value import NameValueAction
from ..frontend.expose import expose_action

if TYPE_CHECKING:
    from ..launch_context import LaunchContext


@expose_action('let')
class SetLaunchConfiguration(NameValueAction):
    """Sets the launch configuration ``name`` to ``value`` (both substitutions)."""

    def _store(self, context: 'LaunchContext', name: str, value: str) -> None:
        context.launch_configurations[name] = value
