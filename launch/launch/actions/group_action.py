# SPDX-License-Identifier: Apache-2.0
"""GroupAction: a group of actions, optionally with its own launch configurations."""

from typing import Any, Dict, Iterable, List, Optional, Text, Tuple, Type, TYPE_CHECKING

from .pop_environment import PopEnvironment
from .pop_launch_configurations import PopLaunchConfigurations
from .push_environment import PushEnvironment
from .push_launch_configurations import PushLaunchConfigurations
from .reset_environment import ResetEnvironment
from .reset_launch_configurations import ResetLaunchConfigurations
from .set_launch_configuration import SetLaunchConfiguration
from ..action import Action
from ..frontend.entity import Entity
from ..frontend.expose import expose_action
from ..launch_description_entity import LaunchDescriptionEntity
from ..some_substitutions_type import SomeSubstitutionsType

if TYPE_CHECKING:
    from ..frontend.parser import Parser
    from ..launch_context import LaunchContext


@expose_action('group')
class GroupAction(Action):
    """
    Runs ``actions`` together (one condition for all of them).

    ``scoped`` (default): launch configurations and environment changes made inside do not
    leave the group. ``forwarding`` (default): the group starts with the configurations of
    its parent; otherwise with only ``launch_configurations`` (and the launch's original
    environment). ``launch_configurations`` are set at the start of the group.
    """

    def __init__(self, actions: Iterable[Action], *, scoped: bool = True,
                 forwarding: bool = True,
                 launch_configurations: Optional[Dict[SomeSubstitutionsType,
                                                      SomeSubstitutionsType]] = None,
                 **left_over_kwargs: Any) -> None:
        """Create the action."""
        super().__init__(**left_over_kwargs)
        self.__actions = list(actions)
        self.__scoped = scoped
        self.__forwarding = forwarding
        self.__launch_configurations = dict(launch_configurations or {})

    @classmethod
    def parse(cls, entity: 'Entity', parser: 'Parser') -> Tuple[Type['Action'], Dict[str, Any]]:
        """Parse ``<group scoped forwarding><keep name value/>actions</group>``."""
        _, kwargs = super().parse(entity, parser)
        scoped = entity.get_attr('scoped', data_type=bool, optional=True)
        if scoped is not None:
            kwargs['scoped'] = scoped
        forwarding = entity.get_attr('forwarding', data_type=bool, optional=True)
        if forwarding is not None:
            kwargs['forwarding'] = forwarding
        keep = entity.get_attr('keep', data_type=List[Entity], optional=True)
        if keep is not None:
            kwargs['launch_configurations'] = {
                tuple(parser.parse_substitution(e.get_attr('name'))):
                parser.parse_substitution(e.get_attr('value')) for e in keep}
        kwargs['actions'] = [parser.parse_action(e) for e in entity.children
                             if e.type_name != 'keep']
        return cls, kwargs

    def get_sub_entities(self) -> List[LaunchDescriptionEntity]:
        """Return the entities the group consists of, in order."""
        settings = [SetLaunchConfiguration(k, v) for k, v in self.__launch_configurations.items()]
        if not self.__scoped:
            return [*settings, *self.__actions]
        if self.__forwarding:
            return [PushLaunchConfigurations(), PushEnvironment(), *settings, *self.__actions,
                    PopEnvironment(), PopLaunchConfigurations()]
        return [PushLaunchConfigurations(), PushEnvironment(), ResetEnvironment(),
                ResetLaunchConfigurations(self.__launch_configurations), *self.__actions,
                PopEnvironment(), PopLaunchConfigurations()]

    def describe_sub_entities(self) -> List[LaunchDescriptionEntity]:
        """Return the actions of the group."""
        return list(self.__actions) if self.condition is None else []

    def describe_conditional_sub_entities(
        self
    ) -> List[Tuple[Text, Iterable[LaunchDescriptionEntity]]]:
        """Return the actions of the group when it has a condition."""
        if self.condition is None:
            return []
        return [('Conditionally included actions', list(self.__actions))]

    def execute(self, context: 'LaunchContext') -> Optional[List[LaunchDescriptionEntity]]:
        """Return the entities of the group."""
        return self.get_sub_entities()
