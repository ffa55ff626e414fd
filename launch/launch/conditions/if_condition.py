# SPDX-License-Identifier: Apache-2.0
"""IfCondition: true when its expression expands to true or 1."""

from typing import Text, TYPE_CHECKING

from .evaluate_condition_expression_impl import evaluate_condition_expression
from ..condition import Condition
from ..some_substitutions_type import SomeSubstitutionsType
from ..utilities.normalize_to_list_of_substitutions_impl import normalize_to_list_of_substitutions

if TYPE_CHECKING:
    from ..launch_context import LaunchContext


class IfCondition(Condition):
    """Holds when ``predicate_expression`` expands to 'true' or '1' (case-insensitive)."""

    def __init__(self, predicate_expression: SomeSubstitutionsType) -> None:
        """Create the condition."""
        self.__predicate_expression = normalize_to_list_of_substitutions(predicate_expression)
        super().__init__(predicate=self._predicate_func)

    def _predicate_func(self, context: 'LaunchContext') -> bool:
        return evaluate_condition_expression(context, self.__predicate_expression)

    def describe(self) -> Text:
        """Return a description of this Condition."""
        return self.__repr__()
