# SPDX-License-Identifier: Apache-2.0
"""SetEnvironmentVariable: set an environment variable when executed."""

from typing import TYPE_CHECKING

from ._name_value import NameValueAction
from ..frontend.expose import expose_action

if TYPE_CHECKING:
    from ..launch_context import LaunchContext


@expose_action('set_env')
class SetEnvironmentVariable(NameValueAction):
    """Sets ``name`` to ``value`` in the environment of the processes launched after it."""

    def _store(self, context: 'LaunchContext', name: str, value: str) -> None:
        context.environment[name] = value
