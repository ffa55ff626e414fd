# SPDX-License-Identifier: Apache-2.0
"""ResetLaunchConfigurations: clear the launch configurations, keeping some."""

from typing import Any, Dict, List, Optional, Tuple, Type, TYPE_CHECKING

from ..action import Action
from ..frontend.entity import Entity
from ..frontend.expose import expose_action
from ..some_substitutions_type import SomeSubstitutionsType
from ..utilities import normalize_to_list_of_substitutions, perform_substitutions

if TYPE_CHECKING:
    from ..frontend.parser import Parser
    from ..launch_context import LaunchContext


@expose_action('reset')
class ResetLaunchConfigurations(Action):
    """
    Clears every launch configuration, then sets ``launch_configurations``.

    Its values may name the current configurations (they are performed before clearing).
    """

    def __init__(self, launch_configurations: Optional[Dict[SomeSubstitutionsType,
                                                            SomeSubstitutionsType]] = None,
                 **kwargs: Any) -> None:
        """Create the action."""
        super().__init__(**kwargs)
        self.__launch_configurations = launch_configurations

    @classmethod
    def parse(cls, entity: 'Entity', parser: 'Parser') -> Tuple[Type['Action'], Dict[str, Any]]:
        """Parse ``<reset><keep name value/>...</reset>``."""
        _, kwargs = super().parse(entity, parser)
        keep = entity.get_attr('keep', data_type=List[Entity], optional=True)
        if keep is not None:
            kwargs['launch_configurations'] = {
                tuple(parser.parse_substitution(e.get_attr('name'))):
                parser.parse_substitution(e.get_attr('value')) for e in keep}
        return cls, kwargs

    def execute(self, context: 'LaunchContext') -> None:
        """Reset the configurations."""
        kept = {}
        for name, value in (self.__launch_configurations or {}).items():
            kept[perform_substitutions(context, normalize_to_list_of_substitutions(name))] = \
                perform_substitutions(context, normalize_to_list_of_substitutions(value))
        context.launch_configurations.clear()
        context.launch_configurations.update(kept)
        return None
