# SPDX-License-Identifier: Apache-2.0
"""DeclareLaunchArgument: declare a launch argument, its default and choices."""

from typing import Any, Dict, List, Optional, Text, Tuple, Type, TYPE_CHECKING

import launch.logging

from ..action import Action
from ..frontend.entity import Entity
from ..frontend.expose import expose_action
from ..some_substitutions_type import SomeSubstitutionsType
from ..substitution import Substitution
from ..utilities import normalize_to_list_of_substitutions, perform_substitutions

if TYPE_CHECKING:
    from ..frontend.parser import Parser
    from ..launch_context import LaunchContext


@expose_action('arg')
class DeclareLaunchArgument(Action):
    """
    Declares the launch argument ``name`` (``ros2 launch ... name:=value``).

    When executed it sets the launch configuration ``name`` to ``default_value`` unless it
    is set already; without a default an unset argument is an error. With ``choices`` the
    value must be one of them.
    """

    def __init__(self, name: Text, *, default_value: Optional[SomeSubstitutionsType] = None,
                 description: Optional[Text] = None, choices: Optional[List[Text]] = None,
                 **kwargs: Any) -> None:
        """Create the action."""
        super().__init__(**kwargs)
        self.__name = name
        self.__logger = launch.logging.get_logger(__name__)
        self.__default_value = None if default_value is None \
            else normalize_to_list_of_substitutions(default_value)
        if choices is not None:
            if len(choices) == 0:
                raise RuntimeError(
                    'Provided choices arg is empty. Use None to ignore the choice list.')
            if isinstance(default_value, str) and default_value not in choices:
                raise RuntimeError(f'Provided default_value "{default_value}" is not in '
                                   f'provided choices "{choices}".')
        if description is None:
            self.__description = 'no description given' if choices is None \
                else f'One of: {choices}'
        else:
            self.__description = description
            if choices is not None:
                if not self.__description.endswith('.'):
                    self.__description += '.'
                self.__description += f' Valid choices are: {choices}'
        self.__choices = choices
        self._conditionally_included = False

    @classmethod
    def parse(cls, entity: 'Entity', parser: 'Parser') -> Tuple[Type['Action'], Dict[str, Any]]:
        """Parse ``<arg name default description><choice value/></arg>``."""
        _, kwargs = super().parse(entity, parser)
        kwargs['name'] = parser.escape_characters(entity.get_attr('name'))
        default = entity.get_attr('default', optional=True)
        if default is not None:
            kwargs['default_value'] = parser.parse_substitution(default)
        description = entity.get_attr('description', optional=True)
        if description is not None:
            kwargs['description'] = parser.escape_characters(description)
        choices = entity.get_attr('choice', data_type=List[Entity], optional=True)
        if choices is not None:
            kwargs['choices'] = [parser.escape_characters(c.get_attr('value')) for c in choices]
        return cls, kwargs

    @property
    def name(self) -> Text:
        """Getter for self.__name."""
        return self.__name

    @property
    def default_value(self) -> Optional[List[Substitution]]:
        """Getter for self.__default_value."""
        return self.__default_value

    @property
    def description(self) -> Text:
        """Getter for self.__description."""
        return self.__description

    @property
    def choices(self) -> Optional[List[Text]]:
        """Getter for self.__choices."""
        return self.__choices

    def execute(self, context: 'LaunchContext') -> None:
        """Set the default (if not set) and check the value against the choices."""
        if self.__name not in context.launch_configurations:
            if self.__default_value is None:
                raise RuntimeError(f'Required launch argument "{self.__name}" (description: '
                                   f'"{self.__description}") was not provided.')
            context.launch_configurations[self.__name] = \
                perform_substitutions(context, self.__default_value)
        if self.__choices is not None:
            value = context.launch_configurations[self.__name]
            if value not in self.__choices:
                raise RuntimeError(f'Argument "{self.__name}" provided value "{value}" is not '
                                   f'valid. Valid options are: {self.__choices}')
        return None
