# SPDX-License-Identifier: Apache-2.0
"""UnsetEnvironmentVariable: remove an environment variable when executed."""

from typing import Any, Dict, List, Tuple, Type, TYPE_CHECKING

from ..action import Action
from ..frontend.expose import expose_action
from ..some_substitutions_type import SomeSubstitutionsType
from ..substitution import Substitution
from ..utilities import normalize_to_list_of_substitutions, perform_substitutions

if TYPE_CHECKING:
    from ..frontend.entity import Entity
    from ..frontend.parser import Parser
    from ..launch_context import LaunchContext


@expose_action('unset_env')
class UnsetEnvironmentVariable(Action):
    """Removes ``name`` from the environment (nothing if it is not set)."""

    def __init__(self, name: SomeSubstitutionsType, **kwargs: Any) -> None:
        """Create the action."""
        super().__init__(**kwargs)
        self.__name = normalize_to_list_of_substitutions(name)

    @classmethod
    def parse(cls, entity: 'Entity', parser: 'Parser') -> Tuple[Type['Action'], Dict[str, Any]]:
        """Parse ``<unset_env name/>``."""
        _, kwargs = super().parse(entity, parser)
        kwargs['name'] = parser.parse_substitution(entity.get_attr('name'))
        return cls, kwargs

    @property
    def name(self) -> List[Substitution]:
        """Getter for the name of the environment variable to be unset."""
        return self.__name

    def execute(self, context: 'LaunchContext') -> None:
        """Remove the variable."""
        context.environment.pop(perform_substitutions(context, self.__name), None)
        return None
