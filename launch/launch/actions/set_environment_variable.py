# SPDX-License-Identifier: Apache-2.0
"""SetEnvironmentVariable: set an environment variable when executed."""

from ._name_value import NameValueAction
from ..frontend import expose_action


@expose_action('set_env')
class SetEnvironmentVariable(NameValueAction):
    """Sets ``name`` to ``value`` in the environment of the processes launched after it."""

    def _store(self, context, name: str, value: str) -> None:
        context.environment[name] = value
