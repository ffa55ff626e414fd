# SPDX-License-Identifier: Apache-2.0
"""FindExecutable: the path of an executable on PATH."""

import shutil
from typing import Any, Dict, List, Sequence, Text, Tuple, Type, TYPE_CHECKING

from .frontend_arguments import positional_arguments
from .substitution_failure import SubstitutionFailure
from ..frontend.expose import expose_substitution
from ..some_substitutions_type import SomeSubstitutionsType
from ..substitution import Substitution

if TYPE_CHECKING:
    from ..launch_context import LaunchContext


@expose_substitution('find-exec')
class FindExecutable(Substitution):
    """Substitutes the full path of the executable ``name`` found on PATH."""

    def __init__(self, *, name: SomeSubstitutionsType) -> None:
        """Create the substitution."""
        from ..utilities.normalize_to_list_of_substitutions_impl import (
            normalize_to_list_of_substitutions)
        super().__init__()
        self.__name = normalize_to_list_of_substitutions(name)

    @classmethod
    def parse(
        cls, data: Sequence[SomeSubstitutionsType]
    ) -> Tuple[Type['Substitution'], Dict[str, Any]]:
        """Parse the arguments of the substitution in a frontend file."""
        return cls, positional_arguments(cls, data, ('name',), required=1)

    @property
    def name(self) -> List[Substitution]:
        """Getter for name."""
        return self.__name

    def describe(self) -> Text:
        """Return a description of this substitution as a string."""
        return 'FindExec({})'.format(' + '.join(s.describe() for s in self.__name))

    def perform(self, context: 'LaunchContext') -> Text:
        """Return the executable's path; SubstitutionFailure if it is not on PATH."""
        from ..utilities.perform_substitutions_impl import perform_substitutions
        name = perform_substitutions(context, self.__name)
        path = shutil.which(name, path=context.environment.get('PATH'))
        if path is None:
            raise SubstitutionFailure(f"executable '{name}' not found on the PATH")
        return path
