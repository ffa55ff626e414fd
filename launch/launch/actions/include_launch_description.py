# SPDX-License-Identifier: Apache-2.0
"""IncludeLaunchDescription: include another launch description (file)."""

import os
from typing import Any, Dict, Iterable, List, Optional, Text, Tuple, Type, TYPE_CHECKING, Union

from .set_launch_configuration import SetLaunchConfiguration
from ..action import Action
from ..frontend.entity import Entity
from ..frontend.expose import expose_action
from ..launch_context import LaunchContext
from ..launch_description import LaunchDescription
from ..launch_description_entity import LaunchDescriptionEntity
from ..launch_description_source import LaunchDescriptionSource
from ..some_substitutions_type import SomeSubstitutionsType
from ..utilities import normalize_to_list_of_substitutions, perform_substitutions

if TYPE_CHECKING:
    from ..frontend.parser import Parser


@expose_action('include')
class IncludeLaunchDescription(Action):
    """
    Includes a launch description, setting ``launch_arguments`` as launch configurations.

    ``launch_description_source``: a LaunchDescriptionSource, a LaunchDescription, or a
    file path (substitutions; loaded as AnyLaunchDescriptionSource). The arguments are set
    in the including scope (use a GroupAction to scope them). A declared argument of the
    included description without a default that is not given is an error.
    """

    includes_launch_description = True

    def __init__(self, launch_description_source: Union[LaunchDescriptionSource,
                                                        LaunchDescription,
                                                        SomeSubstitutionsType], *,
                 launch_arguments: Optional[Iterable[Tuple[SomeSubstitutionsType,
                                                           SomeSubstitutionsType]]] = None,
                 **kwargs: Any) -> None:
        """Create the action."""
        super().__init__(**kwargs)
        if isinstance(launch_description_source, LaunchDescription):
            launch_description_source = LaunchDescriptionSource(launch_description_source)
        elif not isinstance(launch_description_source, LaunchDescriptionSource):
            from ..launch_description_sources.any_launch_description_source import (
                AnyLaunchDescriptionSource)
            launch_description_source = AnyLaunchDescriptionSource(launch_description_source)
        self.__launch_description_source = launch_description_source
        self.__launch_arguments = list(launch_arguments) if launch_arguments is not None \
            else []

    @classmethod
    def parse(cls, entity: 'Entity', parser: 'Parser') -> Tuple[Type['Action'], Dict[str, Any]]:
        """Parse ``<include file><arg name value/></include>``."""
        _, kwargs = super().parse(entity, parser)
        from ..launch_description_sources.any_launch_description_source import (
            AnyLaunchDescriptionSource)
        kwargs['launch_description_source'] = AnyLaunchDescriptionSource(
            parser.parse_substitution(entity.get_attr('file')))
        args = entity.get_attr('arg', data_type=List[Entity], optional=True)
        if args is not None:
            kwargs['launch_arguments'] = [
                (parser.parse_substitution(e.get_attr('name')),
                 parser.parse_substitution(e.get_attr('value'))) for e in args]
        return cls, kwargs

    @property
    def launch_description_source(self) -> LaunchDescriptionSource:
        """Getter for self.__launch_description_source."""
        return self.__launch_description_source

    @property
    def launch_arguments(self) -> List[Tuple[SomeSubstitutionsType, SomeSubstitutionsType]]:
        """Getter for self.__launch_arguments."""
        return self.__launch_arguments

    def describe_sub_entities(self) -> List[LaunchDescriptionEntity]:
        """Return the included description, if it can be loaded without a context."""
        try:
            description = \
                self.__launch_description_source.try_get_launch_description_without_context()
        except Exception:   # noqa: B902 - introspection only: the run reports it
            return []
        return [description] if description is not None else []

    def _get_launch_file(self) -> Text:
        return os.path.abspath(self.__launch_description_source.location)

    def _get_launch_file_directory(self) -> Text:
        path = self._get_launch_file()
        if os.path.exists(path):
            return os.path.dirname(path)
        return self.__launch_description_source.location

    def _try_get_arguments_names_without_context(self) -> List[Text]:
        try:
            context = LaunchContext()
            return [perform_substitutions(context, normalize_to_list_of_substitutions(name))
                    for name, _ in self.__launch_arguments]
        except Exception:   # noqa: B902 - best effort
            return []

    def execute(self, context: 'LaunchContext') -> List[LaunchDescriptionEntity]:
        """Load the description; set the arguments, then visit it."""
        launch_description = self.__launch_description_source.get_launch_description(context)
        context.extend_locals({'current_launch_file_path': self._get_launch_file()})
        context.extend_locals({'current_launch_file_directory': self._get_launch_file_directory()})
        given = [perform_substitutions(context, normalize_to_list_of_substitutions(name))
                 for name, _ in self.__launch_arguments]
        for argument, includes in \
                launch_description.get_launch_arguments_with_include_launch_description_actions():
            if argument._conditionally_included or argument.default_value is not None:
                continue
            names = list(given)
            for include in includes or []:
                names.extend(include._try_get_arguments_names_without_context())
            if argument.name not in names:
                raise RuntimeError(
                    f"Included launch description missing required argument '{argument.name}' "
                    f"(description: '{argument.description}'), given: [{', '.join(names)}]")
        return [*(SetLaunchConfiguration(name, value) for name, value in self.__launch_arguments),
                launch_description]
