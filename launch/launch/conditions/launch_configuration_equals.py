# SPDX-License-Identifier: Apache-2.0
"""LaunchConfigurationEquals: a launch configuration has (or lacks) a value."""

from typing import Optional, Text, TYPE_CHECKING
import warnings

from ..condition import Condition
from ..some_substitutions_type import SomeSubstitutionsType
from ..utilities.normalize_to_list_of_substitutions_impl import normalize_to_list_of_substitutions
from ..utilities.perform_substitutions_impl import perform_substitutions

if TYPE_CHECKING:
    from ..launch_context import LaunchContext


class LaunchConfigurationEquals(Condition):
    """
    Holds when the launch configuration's value equals ``expected_value``.

    ``expected_value`` None: holds when the configuration is not set.
    """

    def __init__(self, launch_configuration_name: Text,
                 expected_value: Optional[SomeSubstitutionsType]) -> None:
        """Create the condition (deprecated upstream: a UserWarning, as upstream)."""
        warnings.warn(
            "The 'LaunchConfigurationEquals' and 'LaunchConfigurationNotEquals' Conditions are "
            "deprecated. Use the 'EqualsSubstitution' and 'NotEqualsSubstitution' substitutions "
            'instead! E.g.: IfCondition(EqualsSubstitution('
            "LaunchConfiguration('some_launch_arg'), 'some_equality_check'))",
            UserWarning, stacklevel=2)
        self.__name = launch_configuration_name
        self.__expected = None if expected_value is None \
            else normalize_to_list_of_substitutions(expected_value)
        super().__init__(predicate=self._predicate_func)

    def _predicate_func(self, context: 'LaunchContext') -> bool:
        expected = None if self.__expected is None \
            else perform_substitutions(context, self.__expected)
        return context.launch_configurations.get(self.__name) == expected

    def describe(self) -> Text:
        """Return a description of this Condition."""
        return self.__repr__()
