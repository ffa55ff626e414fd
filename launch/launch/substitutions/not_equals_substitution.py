# SPDX-License-Identifier: Apache-2.0
"""NotEqualsSubstitution: the negation of EqualsSubstitution."""

from typing import Any, Dict, Sequence, Text, Tuple, Type, TYPE_CHECKING

from .equals_substitution import EqualsSubstitution
from .frontend_arguments import positional_arguments
from ..frontend.expose import expose_substitution

if TYPE_CHECKING:
    from ..launch_context import LaunchContext
    from ..some_substitutions_type import SomeSubstitutionsType
    from ..substitution import Substitution


@expose_substitution('not-equals')
class NotEqualsSubstitution(EqualsSubstitution):
    """Substitutes 'true' if ``left`` differs from ``right`` (see EqualsSubstitution)."""

    @classmethod
    def parse(
        cls, data: Sequence['SomeSubstitutionsType']
    ) -> Tuple[Type['Substitution'], Dict[str, Any]]:
        """Parse the arguments of the substitution in a frontend file."""
        return cls, positional_arguments(cls, data, ('left', 'right'), required=2)

    def describe(self) -> Text:
        """Return a description of this substitution as a string."""
        return 'Not' + super().describe()

    def perform(self, context: 'LaunchContext') -> Text:
        """Return 'true' or 'false'."""
        return 'false' if super().perform(context) == 'true' else 'true'
