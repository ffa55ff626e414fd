# SPDX-License-Identifier: Apache-2.0
"""LaunchConfigurationNotEquals: a launch configuration differs from a value."""

from typing import Optional, Text, TYPE_CHECKING

from .launch_configuration_equals import LaunchConfigurationEquals
from ..some_substitutions_type import SomeSubstitutionsType

if TYPE_CHECKING:
    from ..launch_context import LaunchContext


class LaunchConfigurationNotEquals(LaunchConfigurationEquals):
    """
    Holds when the launch configuration's value differs from ``expected_value``.

    ``expected_value`` None: holds when the configuration is set.
    """

    def __init__(self, launch_configuration_name: Text,
                 expected_value: Optional[SomeSubstitutionsType]) -> None:
        """Create the condition."""
        super().__init__(launch_configuration_name, expected_value)

    def _predicate_func(self, context: 'LaunchContext') -> bool:
        return not super()._predicate_func(context)
