# SPDX-License-Identifier: Apache-2.0
"""The LaunchDescription class: the entities a launch file describes."""

from typing import cast, Iterable, List, Optional, Text, Tuple, TYPE_CHECKING

from .launch_description_entity import LaunchDescriptionEntity

if TYPE_CHECKING:
    from .action import Action
    from .actions.declare_launch_argument import DeclareLaunchArgument
    from .actions.include_launch_description import IncludeLaunchDescription
    from .launch_context import LaunchContext


class LaunchDescription(LaunchDescriptionEntity):
    """A list of launch description entities, visited in order."""

    def __init__(self, initial_entities: Optional[Iterable[LaunchDescriptionEntity]] = None, *,
                 deprecated_reason: Optional[Text] = None) -> None:
        """Create a LaunchDescription."""
        self.__entities = list(initial_entities) if initial_entities is not None else []
        self.__deprecated_reason = deprecated_reason

    def visit(self, context: 'LaunchContext') -> Optional[List[LaunchDescriptionEntity]]:
        """Return the entities (and log the deprecation, if any)."""
        if self.__deprecated_reason is not None:
            import launch.logging
            location = 'unknown launch file'
            try:
                location = context.locals.current_launch_file_path
            except AttributeError:
                pass
            launch.logging.get_logger().warning(
                f'launch file [{location}] is deprecated: {self.__deprecated_reason}')
        return self.__entities

    def describe(self) -> Text:
        """Return a text description of the launch description."""
        return self.__repr__()

    def describe_sub_entities(self) -> List[LaunchDescriptionEntity]:
        """Return the entities."""
        return self.__entities

    @property
    def entities(self) -> List[LaunchDescriptionEntity]:
        """Getter for the entities."""
        return self.__entities

    @property
    def deprecated(self) -> bool:
        """Return True if the launch description is deprecated."""
        return self.__deprecated_reason is not None

    @property
    def deprecated_reason(self) -> Optional[Text]:
        """Getter for deprecated_reason."""
        return self.__deprecated_reason

    def add_entity(self, entity: LaunchDescriptionEntity) -> None:
        """Append an entity."""
        self.__entities.append(entity)

    def add_action(self, action: 'Action') -> None:
        """Append an action."""
        self.add_entity(action)

    def get_launch_arguments(
        self, conditional_inclusion: bool = False
    ) -> List['DeclareLaunchArgument']:
        """
        Return the DeclareLaunchArgument actions of this description, included ones too.

        Each name once (the first declaration). An argument inside a conditional part
        (a condition, an event handler) is marked ``_conditionally_included``.
        """
        return [argument for argument, _ in
                self.get_launch_arguments_with_include_launch_description_actions(
                    conditional_inclusion)]

    def get_launch_arguments_with_include_launch_description_actions(
        self, conditional_inclusion: bool = False
    ) -> List[Tuple['DeclareLaunchArgument', Optional[List['IncludeLaunchDescription']]]]:
        """Return (argument, the IncludeLaunchDescription actions it is nested in, or None)."""
        from .actions.declare_launch_argument import DeclareLaunchArgument
        from .actions.reset_launch_configurations import ResetLaunchConfigurations
        found: List[Tuple[DeclareLaunchArgument, Optional[List['IncludeLaunchDescription']]]] = []

        def walk(entities: Iterable[LaunchDescriptionEntity], conditional: bool,
                 includes: Optional[List['IncludeLaunchDescription']]) -> None:
            for entity in entities:
                if isinstance(entity, DeclareLaunchArgument):
                    if entity.name not in [a.name for a, _ in found]:
                        entity._conditionally_included = conditional or \
                            entity.condition is not None
                        found.append((entity, includes))
                if isinstance(entity, ResetLaunchConfigurations):
                    return      # later arguments cannot be set from the command line
                nested = includes
                if entity.includes_launch_description:
                    nested = (includes or []) + [cast('IncludeLaunchDescription', entity)]
                walk(entity.describe_sub_entities(), conditional, nested)
                for _, sub_entities in entity.describe_conditional_sub_entities():
                    walk(sub_entities, True, nested)

        walk(self.entities, conditional_inclusion, None)
        return found
