# SPDX-License-Identifier: Apache-2.0
"""PathJoinSubstitution: os.path.join of substituted path components."""

import os
from typing import Iterable, List, Text, TYPE_CHECKING, Union

from ..some_substitutions_type import SomeSubstitutionsType
from ..substitution import Substitution

if TYPE_CHECKING:
    from ..launch_context import LaunchContext


class PathJoinSubstitution(Substitution):
    """
    Joins path components with os.path.join.

    Each component is text, a substitution or a list of them (concatenated first); the
    ``/`` operator appends one more component.
    """

    def __init__(self, substitutions: Iterable[Union[SomeSubstitutionsType]]) -> None:
        """Create the substitution."""
        from ..utilities.normalize_to_list_of_substitutions_impl import (
            normalize_to_list_of_substitutions)
        super().__init__()
        self.__substitutions: List[List[Substitution]] = [
            normalize_to_list_of_substitutions(component) for component in substitutions]

    @property
    def substitutions(self) -> List[List[Substitution]]:
        """Getter for substitutions."""
        return self.__substitutions

    def describe(self) -> Text:
        """Return a description of this substitution as a string."""
        return 'PathJoin(' + ', '.join(
            ' + '.join(s.describe() for s in component) for component in self.__substitutions
        ) + ')'

    def perform(self, context: 'LaunchContext') -> Text:
        """Return the joined path."""
        from ..utilities.perform_substitutions_impl import perform_substitutions
        parts = [perform_substitutions(context, component) for component in self.__substitutions]
        return os.path.join(*parts) if parts else ''

    def __truediv__(self, additional_path: SomeSubstitutionsType) -> 'PathJoinSubstitution':
        """Return a new PathJoinSubstitution with one more component."""
        return PathJoinSubstitution([*self.__substitutions, additional_path])
