# SPDX-License-Identifier: Apache-2.0
"""The part SetEnvironmentVariable and SetLaunchConfiguration share: a name and a value."""

from typing import Any, Dict, List, Tuple, Type, TYPE_CHECKING

from ..action import Action
from ..some_substitutions_type import SomeSubstitutionsType
from ..substitution import Substitution
from ..utilities import normalize_to_list_of_substitutions, perform_substitutions

if TYPE_CHECKING:
    from ..frontend.entity import Entity
    from ..frontend.parser import Parser
    from ..launch_context import LaunchContext


class NameValueAction(Action):
    """An action that stores ``value`` under ``name`` (both substitutions) when executed."""

    def __init__(self, name: SomeSubstitutionsType, value: SomeSubstitutionsType,
                 **kwargs: Any) -> None:
        """Create the action."""
        super().__init__(**kwargs)
        self.__name = normalize_to_list_of_substitutions(name)
        self.__value = normalize_to_list_of_substitutions(value)

    @classmethod
    def parse(cls, entity: 'Entity', parser: 'Parser') -> Tuple[Type['Action'], Dict[str, Any]]:
        """Parse the tag's ``name`` and ``value`` attributes."""
        _, kwargs = super().parse(entity, parser)
        kwargs['name'] = parser.parse_substitution(entity.get_attr('name'))
        kwargs['value'] = parser.parse_substitution(entity.get_attr('value'))
        return cls, kwargs

    @property
    def name(self) -> List[Substitution]:
        """Getter for the name."""
        return self.__name

    @property
    def value(self) -> List[Substitution]:
        """Getter for the value."""
        return self.__value

    def execute(self, context: 'LaunchContext') -> None:
        """Store the value under the name, both substituted."""
        self._store(context, perform_substitutions(context, self.__name),
                    perform_substitutions(context, self.__value))
        return None

    def _store(self, context: 'LaunchContext', name: str, value: str) -> None:
        raise NotImplementedError
