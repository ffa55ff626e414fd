# SPDX-License-Identifier: Apache-2.0
"""ThisLaunchFile: the path of the launch file being loaded."""

from typing import Any, Dict, Sequence, Text, Tuple, Type, TYPE_CHECKING

from .frontend_arguments import positional_arguments
from .substitution_failure import SubstitutionFailure
from ..frontend.expose import expose_substitution
from ..substitution import Substitution

if TYPE_CHECKING:
    from ..launch_context import LaunchContext
    from ..some_substitutions_type import SomeSubstitutionsType


@expose_substitution('filename')
class ThisLaunchFile(Substitution):
    """Substitutes the absolute path of the current launch file."""

    #: The launch context's local that holds the value (set while a launch file loads).
    LOCAL = 'current_launch_file_path'

    @classmethod
    def parse(
        cls, data: Sequence['SomeSubstitutionsType']
    ) -> Tuple[Type['Substitution'], Dict[str, Any]]:
        """Parse the arguments of the substitution in a frontend file."""
        return cls, positional_arguments(cls, data, (), required=0)

    def describe(self) -> Text:
        """Return a description of this substitution as a string."""
        return f'{type(self).__name__}()'

    def perform(self, context: 'LaunchContext') -> Text:
        """Return the value; SubstitutionFailure outside of a launch file."""
        try:
            value: Text = getattr(context.locals, self.LOCAL)
            return value
        except AttributeError:
            raise SubstitutionFailure(
                f'{type(self).__name__} used outside of a launch file (in a script)') from None
