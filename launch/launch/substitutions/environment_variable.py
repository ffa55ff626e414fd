# SPDX-License-Identifier: Apache-2.0
"""EnvironmentVariable: the value of an environment variable."""

from typing import Any, Dict, List, Optional, Sequence, Text, Tuple, Type, TYPE_CHECKING

from .frontend_arguments import positional_arguments
from .substitution_failure import SubstitutionFailure
from ..frontend.expose import expose_substitution
from ..some_substitutions_type import SomeSubstitutionsType
from ..substitution import Substitution

if TYPE_CHECKING:
    from ..launch_context import LaunchContext


@expose_substitution('env')
class EnvironmentVariable(Substitution):
    """
    Substitutes the value of the environment variable ``name`` of the launch's environment.

    Unset: ``default_value`` if given, else SubstitutionFailure.
    """

    def __init__(self, name: SomeSubstitutionsType, *,
                 default_value: Optional[SomeSubstitutionsType] = None) -> None:
        """Create the substitution."""
        from ..utilities.normalize_to_list_of_substitutions_impl import (
            normalize_to_list_of_substitutions)
        super().__init__()
        self.__name = normalize_to_list_of_substitutions(name)
        self.__default_value = None if default_value is None \
            else normalize_to_list_of_substitutions(default_value)

    @classmethod
    def parse(
        cls, data: Sequence[SomeSubstitutionsType]
    ) -> Tuple[Type['Substitution'], Dict[str, Any]]:
        """Parse the arguments of the substitution in a frontend file."""
        return cls, positional_arguments(cls, data, ('name', 'default_value'), required=1)

    @property
    def name(self) -> List[Substitution]:
        """Getter for name."""
        return self.__name

    @property
    def default_value(self) -> Optional[List[Substitution]]:
        """Getter for default_value."""
        return self.__default_value

    def describe(self) -> Text:
        """Return a description of this substitution as a string."""
        return 'EnvVar({})'.format(' + '.join(s.describe() for s in self.__name))

    def perform(self, context: 'LaunchContext') -> Text:
        """Return the variable's value."""
        from ..utilities.perform_substitutions_impl import perform_substitutions
        name = perform_substitutions(context, self.__name)
        value = context.environment.get(name)
        if value is not None:
            return value
        if self.__default_value is None:
            raise SubstitutionFailure(f"environment variable '{name}' does not exist")
        return perform_substitutions(context, self.__default_value)
