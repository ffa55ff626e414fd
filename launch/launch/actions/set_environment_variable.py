# SPDX-License-Identifier: Apache-2.0
"""SetEnvironmentVariable: set an environment variable when executed."""

from typing import List

from ..action import Action
from ..frontend import expose_action
from ..some_substitutions_type import SomeSubstitutionsType
from ..substitution import Substitution
from ..utilities import normalize_to_list_of_substitutions, perform_substitutions


@expose_action('set_env')
class SetEnvironmentVariable(Action):
    """Sets ``name`` to ``value`` in the environment of the processes launched after it."""

    def __init__(self, name: SomeSubstitutionsType, value: SomeSubstitutionsType,
                 **kwargs) -> None:
        """Create the action."""
        super().__init__(**kwargs)
        self.__name = normalize_to_list_of_substitutions(name)
        self.__value = normalize_to_list_of_substitutions(value)

    @classmethod
    def parse(cls, entity, parser):
        """Parse ``<set_env name value/>``."""
        _, kwargs = super().parse(entity, parser)
        kwargs['name'] = parser.parse_substitution(entity.get_attr('name'))
        kwargs['value'] = parser.parse_substitution(entity.get_attr('value'))
        return cls, kwargs

    @property
    def name(self) -> List[Substitution]:
        """Getter for the name of the environment variable to be set."""
        return self.__name

    @property
    def value(self) -> List[Substitution]:
        """Getter for the value of the environment variable to be set."""
        return self.__value

    def execute(self, context) -> None:
        """Set the variable."""
        context.environment[perform_substitutions(context, self.__name)] = \
            perform_substitutions(context, self.__value)
        return None
