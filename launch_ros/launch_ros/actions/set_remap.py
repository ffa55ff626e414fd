# SPDX-License-Identifier: Apache-2.0
"""SetRemap: a remapping for every Node that follows (in its scope)."""

from typing import Any, Dict, Tuple, Type

from launch.action import Action
from launch.frontend import expose_action
from launch.some_substitutions_type import SomeSubstitutionsType
from launch.utilities import normalize_to_list_of_substitutions, perform_substitutions


@expose_action('set_remap')
class SetRemap(Action):
    """Gives every Node that follows (in its scope) ``-r src:=dst``."""

    def __init__(self, src: SomeSubstitutionsType, dst: SomeSubstitutionsType,
                 **kwargs: Any) -> None:
        """Create the action."""
        super().__init__(**kwargs)
        self.__src = normalize_to_list_of_substitutions(src)
        self.__dst = normalize_to_list_of_substitutions(dst)

    @property
    def src(self) -> Any:
        """Getter for src."""
        return self.__src

    @property
    def dst(self) -> Any:
        """Getter for dst."""
        return self.__dst

    @classmethod
    def parse(cls, entity: Any, parser: Any) -> Tuple[Type[Action], Dict[str, Any]]:
        """Parse the ``<set_remap>`` tag."""
        _, kwargs = super().parse(entity, parser)
        kwargs['src'] = parser.parse_substitution(entity.get_attr('from'))
        kwargs['dst'] = parser.parse_substitution(entity.get_attr('to'))
        return cls, kwargs

    def execute(self, context: Any) -> None:
        """Add the rule to the launch configuration 'ros_remaps'."""
        rule = (perform_substitutions(context, self.__src),
                perform_substitutions(context, self.__dst))
        current = list(context.launch_configurations.get('ros_remaps', []))
        context.launch_configurations['ros_remaps'] = current + [rule]
        return None
