# SPDX-License-Identifier: Apache-2.0
"""SetLaunchConfiguration: set a launch configuration when executed."""

from ._name_value import NameValueAction
from ..frontend import expose_action


@expose_action('let')
class SetLaunchConfiguration(NameValueAction):
    """Sets the launch configuration ``name`` to ``value`` (both substitutions)."""

    def _store(self, context, name: str, value: str) -> None:
        context.launch_configurations[name] = value
