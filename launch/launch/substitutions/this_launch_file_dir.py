# SPDX-License-Identifier: Apache-2.0
"""ThisLaunchFileDir: the directory of the launch file being loaded."""

from typing import Any, Dict, Sequence, Text, Tuple, Type, TYPE_CHECKING

from .substitution_failure import SubstitutionFailure
from ..frontend.expose import expose_substitution
from ..substitution import Substitution

if TYPE_CHECKING:
    from ..launch_context import LaunchContext
    from ..some_substitutions_type import SomeSubstitutionsType


@expose_substitution('dirname')
class ThisLaunchFileDir(Substitution):
    """Substitutes the absolute path of the directory of the current launch file."""

    @classmethod
    def parse(
        cls, data: Sequence['SomeSubstitutionsType']
    ) -> Tuple[Type['Substitution'], Dict[str, Any]]:
        """Parse the arguments of the substitution in a frontend file."""
        if not 0 <= len(data) <= 0:
            raise TypeError(f'{cls.__name__} takes 0 argument(s), got {len(data)}')
        return cls, {}

    def describe(self) -> Text:
        """Return a description of this substitution as a string."""
        return 'ThisLaunchFileDir()'

    def perform(self, context: 'LaunchContext') -> Text:
        """Return the directory; SubstitutionFailure outside of a launch file."""
        try:
            path: Text = context.locals.current_launch_file_directory
            return path
        except AttributeError:
            raise SubstitutionFailure(
                'ThisLaunchFileDir used outside of a launch file (in a script)') from None
