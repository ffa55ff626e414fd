# SPDX-License-Identifier: Apache-2.0
"""SetLaunchConfiguration: set a launch configuration when executed."""

from typing import List

from ..action import Action
from ..frontend import expose_action
from ..some_substitutions_type import SomeSubstitutionsType
from ..substitution import Substitution
from ..utilities import normalize_to_list_of_substitutions, perform_substitutions


@expose_action('let')
class SetLaunchConfiguration(Action):
    """Sets the launch configuration ``name`` to ``value`` (both substitutions)."""

    def __init__(self, name: SomeSubstitutionsType, value: SomeSubstitutionsType,
                 **kwargs) -> None:
        """Create the action."""
        super().__init__(**kwargs)
        self.__name = normalize_to_list_of_substitutions(name)
        self.__value = normalize_to_list_of_substitutions(value)

    @classmethod
    def parse(cls, entity, parser):
        """Parse ``<let name value/>``."""
        _, kwargs = super().parse(entity, parser)
        kwargs['name'] = parser.parse_substitution(entity.get_attr('name'))
        kwargs['value'] = parser.parse_substitution(entity.get_attr('value'))
        return cls, kwargs

    @property
    def name(self) -> List[Substitution]:
        """Getter for self.__name."""
        return self.__name

    @property
    def value(self) -> List[Substitution]:
        """Getter for self.__value."""
        return self.__value

    def execute(self, context) -> None:
        """Set the configuration."""
        context.launch_configurations[perform_substitutions(context, self.__name)] = \
            perform_substitutions(context, self.__value)
        return None
