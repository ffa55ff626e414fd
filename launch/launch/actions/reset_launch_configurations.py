# SPDX-License-Identifier: Apache-2.0
"""ResetLaunchConfigurations: clear the launch configurations, keeping some."""

from typing import Dict, List, Optional

from ..action import Action
from ..frontend import Entity, expose_action
from ..some_substitutions_type import SomeSubstitutionsType
from ..utilities import normalize_to_list_of_substitutions, perform_substitutions


@expose_action('reset')
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

    @classmethod
    def parse(cls, entity, parser):
        """Parse ``<reset><keep name value/>...</reset>``."""
        _, kwargs = super().parse(entity, parser)
        keep = entity.get_attr('keep', data_type=List[Entity], optional=True)
        if keep is not None:
            kwargs['launch_configurations'] = {
                tuple(parser.parse_substitution(e.get_attr('name'))):
                parser.parse_substitution(e.get_attr('value')) for e in keep}
        return cls, kwargs

    def execute(self, context) -> None:
        """Reset the configurations."""
        kept = {}
        for name, value in (self.__launch_configurations or {}).items():
            kept[perform_substitutions(context, normalize_to_list_of_substitutions(name))] = \
                perform_substitutions(context, normalize_to_list_of_substitutions(value))
        context.launch_configurations.clear()
        context.launch_configurations.update(kept)
        return None
