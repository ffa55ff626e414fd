# SPDX-License-Identifier: Apache-2.0
"""Parameter: the value of a parameter set with SetParameter."""

from typing import Any, Dict, List, Optional, Sequence, Text, Tuple, Type

from launch.frontend import expose_substitution
from launch.some_substitutions_type import SomeSubstitutionsType
from launch.substitution import Substitution
from launch.substitutions import SubstitutionFailure
from launch.utilities import normalize_to_list_of_substitutions, perform_substitutions


@expose_substitution('param')
class Parameter(Substitution):
    """Substitutes the value of the parameter ``name`` set by SetParameter (or ``default``)."""

    def __init__(self, name: SomeSubstitutionsType, *,
                 default: Optional[SomeSubstitutionsType] = None) -> None:
        """Create the substitution."""
        super().__init__()
        self.__name = normalize_to_list_of_substitutions(name)
        self.__default = None if default is None else normalize_to_list_of_substitutions(
            default if isinstance(default, (str, Substitution, list)) else str(default))

    @classmethod
    def parse(cls, data: Sequence[SomeSubstitutionsType]
              ) -> Tuple[Type[Substitution], Dict[str, Any]]:
        """Parse ``$(param <name> [<default>])``."""
        if not 1 <= len(data) <= 2:
            raise TypeError(f'{cls.__name__} takes 1 to 2 arguments, got {len(data)}')
        return cls, {'name': data[0], **({'default': data[1]} if len(data) == 2 else {})}

    @property
    def name(self) -> List[Substitution]:
        """Getter for name."""
        return self.__name

    def describe(self) -> Text:
        """Return a description of this substitution as a string."""
        return 'Parameter({})'.format(' + '.join(s.describe() for s in self.__name))

    def perform(self, context: Any) -> Text:
        """Return the parameter's value."""
        name = perform_substitutions(context, self.__name)
        for item in reversed(context.launch_configurations.get('global_params', [])):
            if isinstance(item, tuple) and item[0] == name:
                return str(item[1])
        if self.__default is not None:
            return perform_substitutions(context, self.__default)
        raise SubstitutionFailure(f"parameter '{name}' not found")
