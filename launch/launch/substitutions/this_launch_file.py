# SPDX-License-Identifier: Apache-2.0
"""ThisLaunchFile: the path of the launch file being loaded."""

from typing import Text

from .substitution_failure import SubstitutionFailure
from ..frontend.expose import expose_substitution
from ..substitution import Substitution


@expose_substitution('filename')
class ThisLaunchFile(Substitution):
    """Substitutes the absolute path of the current launch file."""

    @classmethod
    def parse(cls, data):
        """Parse the arguments of the substitution in a frontend file."""
        if not 0 <= len(data) <= 0:
            raise TypeError(f'{cls.__name__} takes 0 argument(s), got {len(data)}')
        return cls, {}

    def describe(self) -> Text:
        """Return a description of this substitution as a string."""
        return 'ThisLaunchFile()'

    def perform(self, context) -> Text:
        """Return the path; SubstitutionFailure outside of a launch file."""
        try:
            return context.locals.current_launch_file_path
        except AttributeError:
            raise SubstitutionFailure(
                'ThisLaunchFile used outside of a launch file (in a script)') from None
