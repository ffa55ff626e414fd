# SPDX-License-Identifier: Apache-2.0
"""ResetLaunchConfigurations: clear the launch configurations, keeping some."""

from typing import Dict, Optional

from ..action import Action
from ..some_substitutions_type import SomeSubstitutionsType
from ..utilities import normalize_to_list_of_substitutions, perform_substitutions


class ResetLaunchConfigurations(Action):
    """
    Clears every launch configuration, then sets ``launch_configurations``.

    Its values may name the current configurations (they are performed before clearing).
    """

    def __init__(self, launch_configurations: Optional[Dict[SomeSubstitutionsType,
                                                            SomeSubstitutionsType]] = None,
                 **kwargs) -> None:
        """Create the action."""
        super().__init__(**kwargs)
        self.__launch_configurations = launch_configurations

    def execute(self, context) -> None:
        """Reset the configurations."""
        kept = {}
        for name, value in (self.__launch_configurations or {}).items():
            kept[perform_substitutions(context, normalize_to_list_of_substitutions(name))] = \
                perform_substitutions(context, normalize_to_list_of_substitutions(value))
        context.launch_configurations.clear()
        context.launch_configurations.update(kept)
        return None
