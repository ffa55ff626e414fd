# SPDX-License-Identifier: Apache-2.0
"""LaunchDescriptionSource: where an included launch description comes from."""

import os
from typing import List, Optional, Text, TYPE_CHECKING

from .launch_description import LaunchDescription
from .some_substitutions_type import SomeSubstitutionsType
from .substitution import Substitution

if TYPE_CHECKING:
    from .launch_context import LaunchContext


class LaunchDescriptionSource:
    """
    A launch description, given directly or loaded from a location (a file path).

    The location may be substitutions, performed when the description is first needed.
    """

    def __init__(self, launch_description: Optional[LaunchDescription] = None,
                 location: SomeSubstitutionsType = '<script>',
                 method: Text = 'unspecified mechanism from a script') -> None:
        """Create the source."""
        from .utilities import normalize_to_list_of_substitutions
        self.__launch_description = launch_description
        self.__location: List[Substitution] = normalize_to_list_of_substitutions(location)
        self.__expanded_location: Optional[Text] = None
        self.__method = method
        self._logged_location = False

    def try_get_launch_description_without_context(self) -> Optional[LaunchDescription]:
        """Load the description if its location needs no context (for introspection)."""
        if self.__launch_description is None:
            from .substitutions import TextSubstitution
            if all(isinstance(s, TextSubstitution) for s in self.__location):
                location = ''.join(s.text for s in self.__location)    # type: ignore
                self.__expanded_location = location
                self.__launch_description = self._get_launch_description(location)
        return self.__launch_description

    def get_launch_description(self, context: 'LaunchContext') -> LaunchDescription:
        """Return the description, loading it (in ``context``) the first time."""
        from .utilities import perform_substitutions
        if self.__launch_description is None:
            location = perform_substitutions(context, self.__location)
            self.__expanded_location = location
            self.__launch_description = self._get_launch_description(location)
        return self.__launch_description

    def _get_launch_description(self, location: Text) -> LaunchDescription:
        raise RuntimeError('LaunchDescriptionSource has no launch description and no loader')

    @property
    def location(self) -> Text:
        """Return the location: expanded if known, else a description of it."""
        if self.__expanded_location is not None:
            return self.__expanded_location
        from .substitutions import TextSubstitution
        if all(isinstance(s, TextSubstitution) for s in self.__location):
            return ''.join(s.text for s in self.__location)    # type: ignore
        return ' + '.join(s.describe() for s in self.__location)

    @property
    def method(self) -> Text:
        """Return how the description is obtained."""
        return self.__method

    def get_launch_file_directory(self) -> Optional[Text]:
        """Return the directory of the launch file, if the location is a file."""
        location = self.__expanded_location
        if location is None or location.startswith('<'):
            return None
        return os.path.dirname(os.path.abspath(location))
