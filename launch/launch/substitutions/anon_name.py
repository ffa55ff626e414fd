# SPDX-License-Identifier: Apache-2.0
"""AnonName: a name made unique to this launch, the same every time it is asked for."""

import os
import random
import re
import socket
from typing import Any, Dict, List, Sequence, Text, Tuple, Type, TYPE_CHECKING

from .frontend_arguments import positional_arguments
from ..frontend.expose import expose_substitution
from ..some_substitutions_type import SomeSubstitutionsType
from ..substitution import Substitution

if TYPE_CHECKING:
    from ..launch_context import LaunchContext


@expose_substitution('anon')
class AnonName(Substitution):
    """
    Substitutes ``<name>_<host>_<pid>_<random>``.

    The same ``name`` gives the same result for the rest of the launch (it is kept in
    the launch configurations as ``anon<name>``).
    """

    def __init__(self, name: SomeSubstitutionsType) -> None:
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
        return 'AnonName({})'.format(' + '.join(s.describe() for s in self.__name))

    @staticmethod
    def compute_name(name: Text) -> Text:
        """Return a new unique name based on ``name``."""
        host = re.sub(r'[^A-Za-z0-9_]', '_', socket.gethostname())
        return f'{name}_{host}_{os.getpid()}_{random.randint(0, 2 ** 63)}'

    def perform(self, context: 'LaunchContext') -> Text:
        """Return the unique name of ``name`` in this launch."""
        from ..utilities.perform_substitutions_impl import perform_substitutions
        name = perform_substitutions(context, self.__name)
        key = 'anon' + name
        if key not in context.launch_configurations:
            context.launch_configurations[key] = self.compute_name(name)
        return context.launch_configurations[key]
