# SPDX-License-Identifier: Apache-2.0
"""SetParameter: a parameter of every Node that follows (in its scope)."""

from typing import Any, Dict, Tuple, Type

from launch.action import Action
from launch.frontend import expose_action
from launch.some_substitutions_type import SomeSubstitutionsType

from ..parameter_descriptions import Parameter, ParameterValue


@expose_action('set_parameter')
class SetParameter(Action):
    """Gives every Node that follows (in its scope) the parameter ``name`` := ``value``."""

    def __init__(self, name: SomeSubstitutionsType, value: Any, **kwargs: Any) -> None:
        """Create the action."""
        super().__init__(**kwargs)
        self.__param = Parameter(name, value if isinstance(value, ParameterValue)
                                 else ParameterValue(value))

    @property
    def name(self) -> Any:
        """Getter for name."""
        return self.__param.name

    @property
    def value(self) -> Any:
        """Getter for value."""
        return self.__param.value

    @classmethod
    def parse(cls, entity: Any, parser: Any) -> Tuple[Type[Action], Dict[str, Any]]:
        """Parse the ``<set_parameter>`` tag."""
        _, kwargs = super().parse(entity, parser)
        kwargs['name'] = parser.parse_substitution(entity.get_attr('name'))
        value = entity.get_attr('value', data_type=None)
        kwargs['value'] = parser.parse_substitution(value) if isinstance(value, str) else value
        return cls, kwargs

    def execute(self, context: Any) -> None:
        """Add the parameter to the launch configuration 'global_params'."""
        from .node import _yaml_value
        name, value = self.__param.evaluate(context)
        text = value if isinstance(value, str) else _yaml_value(value)
        current = list(context.launch_configurations.get('global_params', []))
        context.launch_configurations['global_params'] = current + [(name, text)]
        return None
