# SPDX-License-Identifier: Apache-2.0
"""LaunchConfiguration: the value of a launch configuration (a launch argument)."""

from typing import Any, Dict, Iterable, List, Optional, Sequence, Text, Tuple, Type, TYPE_CHECKING

from .frontend_arguments import positional_arguments
from .substitution_failure import SubstitutionFailure
from ..frontend.expose import expose_substitution
from ..some_substitutions_type import SomeSubstitutionsType
from ..substitution import Substitution

if TYPE_CHECKING:
    from ..launch_context import LaunchContext


@expose_substitution('var')
class LaunchConfiguration(Substitution):
    """
    Substitutes the value of the launch configuration ``variable_name``.

    Fails with SubstitutionFailure if it is not set and no ``default`` is given.
    """

    def __init__(self, variable_name: SomeSubstitutionsType, *,
                 default: Optional[Any] = None) -> None:
        """Create the substitution."""
        from ..utilities.normalize_to_list_of_substitutions_impl import (
            normalize_to_list_of_substitutions)
        super().__init__()
        self.__variable_name = normalize_to_list_of_substitutions(variable_name)
        if default is None:
            self.__default: Optional[List[Substitution]] = None
        elif isinstance(default, (str, Substitution)) or (
                isinstance(default, Iterable) and not isinstance(default, (bytes, dict))):
            self.__default = normalize_to_list_of_substitutions(default)
        else:
            self.__default = normalize_to_list_of_substitutions(str(default))

    @classmethod
    def parse(
        cls, data: Sequence[SomeSubstitutionsType]
    ) -> Tuple[Type['Substitution'], Dict[str, Any]]:
        """Parse the arguments of the substitution in a frontend file."""
        return cls, positional_arguments(cls, data, ('variable_name', 'default'), required=1)

    @property
    def variable_name(self) -> List[Substitution]:
        """Getter for variable_name."""
        return self.__variable_name

    @property
    def default(self) -> Optional[List[Substitution]]:
        """Getter for default."""
        return self.__default

    def describe(self) -> Text:
        """Return a description of this substitution as a string."""
        name = ' + '.join(s.describe() for s in self.__variable_name)
        return f'LaunchConfig({name})'

    def perform(self, context: 'LaunchContext') -> Text:
        """Return the value of the launch configuration, else the default."""
        from ..utilities.perform_substitutions_impl import perform_substitutions
        name = perform_substitutions(context, self.__variable_name)
        if name in context.launch_configurations:
            return context.launch_configurations[name]
        if self.__default is None:
            raise SubstitutionFailure(f"launch configuration '{name}' does not exist")
        return perform_substitutions(context, self.__default)
