# SPDX-License-Identifier: Apache-2.0
"""SetUseSimTime: the use_sim_time parameter of every Node that follows (in its scope)."""

from typing import Any, Dict, Tuple, Type

from launch.action import Action
from launch.frontend import expose_action
from launch.some_substitutions_type import SomeSubstitutionsType

from .set_parameter import SetParameter


@expose_action('set_use_sim_time')
class SetUseSimTime(SetParameter):
    """SetParameter('use_sim_time', value)."""

    def __init__(self, value: SomeSubstitutionsType, **kwargs: Any) -> None:
        """Create the action."""
        super().__init__('use_sim_time', value, **kwargs)

    @classmethod
    def parse(cls, entity: Any, parser: Any) -> Tuple[Type[Action], Dict[str, Any]]:
        """Parse ``<set_use_sim_time value/>``."""
        _, kwargs = Action.parse(entity, parser)
        value = entity.get_attr('value', data_type=None)
        kwargs['value'] = parser.parse_substitution(value) if isinstance(value, str) else value
        return cls, kwargs
