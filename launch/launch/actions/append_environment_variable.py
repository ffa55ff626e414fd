# SPDX-License-Identifier: Apache-2.0
"""AppendEnvironmentVariable: append (or prepend) a value to an environment variable."""

import os
from typing import Any, Dict, List, Tuple, Type, TYPE_CHECKING, Union

from ..action import Action
from ..frontend.expose import expose_action
from ..some_substitutions_type import SomeSubstitutionsType
from ..substitution import Substitution
from ..utilities import normalize_to_list_of_substitutions, perform_substitutions
from ..utilities.type_utils import perform_typed_substitution

if TYPE_CHECKING:
    from ..frontend.entity import Entity
    from ..frontend.parser import Parser
    from ..launch_context import LaunchContext


@expose_action('append_env')
class AppendEnvironmentVariable(Action):
    """
    Appends ``value`` to the variable ``name`` with ``separator`` (default os.pathsep).

    ``prepend`` (a bool or substitutions) puts it first instead. An unset or empty
    variable becomes ``value``.
    """

    def __init__(self, name: SomeSubstitutionsType, value: SomeSubstitutionsType, *,
                 prepend: Union[bool, SomeSubstitutionsType] = False,
                 separator: SomeSubstitutionsType = os.pathsep, **kwargs: Any) -> None:
        """Create the action."""
        super().__init__(**kwargs)
        self.__name = normalize_to_list_of_substitutions(name)
        self.__value = normalize_to_list_of_substitutions(value)
        self.__prepend = prepend if isinstance(prepend, bool) \
            else normalize_to_list_of_substitutions(prepend)
        self.__separator = normalize_to_list_of_substitutions(separator)

    @classmethod
    def parse(cls, entity: 'Entity', parser: 'Parser') -> Tuple[Type['Action'], Dict[str, Any]]:
        """Parse ``<append_env name value prepend separator/>``."""
        _, kwargs = super().parse(entity, parser)
        kwargs['name'] = parser.parse_substitution(entity.get_attr('name'))
        kwargs['value'] = parser.parse_substitution(entity.get_attr('value'))
        prepend = entity.get_attr('prepend', data_type=bool, optional=True, can_be_str=True)
        if prepend is not None:
            kwargs['prepend'] = prepend if isinstance(prepend, bool) \
                else parser.parse_substitution(prepend)
        separator = entity.get_attr('separator', optional=True)
        if separator is not None:
            kwargs['separator'] = parser.parse_substitution(separator)
        return cls, kwargs

    @property
    def name(self) -> List[Substitution]:
        """Getter for the name of the environment variable to be set or appended to."""
        return self.__name

    @property
    def value(self) -> List[Substitution]:
        """Getter for the value to be appended."""
        return self.__value

    @property
    def prepend(self) -> Union[bool, List[Substitution]]:
        """Getter for prepend."""
        return self.__prepend

    @property
    def separator(self) -> List[Substitution]:
        """Getter for the separator."""
        return self.__separator

    def execute(self, context: 'LaunchContext') -> None:
        """Append (or prepend) the value."""
        name = perform_substitutions(context, self.__name)
        value = perform_substitutions(context, self.__value)
        separator = perform_substitutions(context, self.__separator)
        prepend = perform_typed_substitution(context, self.__prepend, bool)
        current = context.environment.get(name)
        if current:
            value = value + separator + current if prepend else current + separator + value
        context.environment[name] = value
        return None
