# SPDX-License-Identifier: Apache-2.0
"""IfElseSubstitution: one of two values, chosen by a condition expression."""

from typing import Any, Dict, Sequence, Text, Tuple, Type, TYPE_CHECKING

from .frontend_arguments import positional_arguments
from ..frontend.expose import expose_substitution
from ..some_substitutions_type import SomeSubstitutionsType
from ..substitution import Substitution

if TYPE_CHECKING:
    from ..launch_context import LaunchContext


@expose_substitution('if')
class IfElseSubstitution(Substitution):
    """Substitutes ``if_value`` when ``condition`` is true (true/1/yes/on), else ``else_value``."""

    def __init__(self, condition: SomeSubstitutionsType,
                 if_value: SomeSubstitutionsType = '',
                 else_value: SomeSubstitutionsType = '') -> None:
        """Create the substitution."""
        from ..utilities.normalize_to_list_of_substitutions_impl import (
            normalize_to_list_of_substitutions)
        super().__init__()
        if if_value == else_value == '':
            raise RuntimeError('One of if_value and else_value must be specified')
        self.__condition = normalize_to_list_of_substitutions(condition)
        self.__if_value = normalize_to_list_of_substitutions(if_value)
        self.__else_value = normalize_to_list_of_substitutions(else_value)

    @classmethod
    def parse(
        cls, data: Sequence[SomeSubstitutionsType]
    ) -> Tuple[Type['Substitution'], Dict[str, Any]]:
        """Parse the arguments of the substitution in a frontend file."""
        return cls, positional_arguments(cls, data, ('condition', 'if_value', 'else_value'),
                                         required=3)

    def describe(self) -> Text:
        """Return a description of this substitution as a string."""
        return 'IfElseSubstitution({})'.format(
            ' + '.join(s.describe() for s in self.__condition))

    def perform(self, context: 'LaunchContext') -> Text:
        """Return the chosen value."""
        from .substitution_failure import SubstitutionFailure
        from ..utilities.perform_substitutions_impl import perform_substitutions
        from ..utilities.type_utils import perform_typed_substitution
        try:
            condition = perform_typed_substitution(context, self.__condition, bool)
        except (TypeError, ValueError) as e:
            raise SubstitutionFailure(str(e)) from None
        if condition:
            return perform_substitutions(context, self.__if_value)
        return perform_substitutions(context, self.__else_value)
