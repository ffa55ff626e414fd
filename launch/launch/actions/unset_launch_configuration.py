# SPDX-License-Identifier: Apache-2.0
"""UnsetLaunchConfiguration: remove a launch configuration when executed."""

from typing import Any, List, TYPE_CHECKING

from ..action import Action
from ..some_substitutions_type import SomeSubstitutionsType
from ..substitution import Substitution
from ..utilities import normalize_to_list_of_substitutions, perform_substitutions

if TYPE_CHECKING:
    from ..launch_context import LaunchContext


class UnsetLaunchConfiguration(Action):
    """Removes the launch configuration ``name`` (nothing if it is not set)."""

    def __init__(self, name: SomeSubstitutionsType, **kwargs: Any) -> None:
        """Create the action."""
        super().__init__(**kwargs)
        self.__name = normalize_to_list_of_substitutions(name)

    @property
    def name(self) -> List[Substitution]:
        """Getter for self.__name."""
        return self.__name

    def execute(self, context: 'LaunchContext') -> None:
        """Remove the configuration."""
        context.launch_configurations.pop(perform_substitutions(context, self.__name), None)
        return None
