# SPDX-License-Identifier: Apache-2.0
"""SetParametersFromFile: a parameter file for every Node that follows (in its scope)."""

from typing import Any, Dict, Tuple, Type

from launch.action import Action
from launch.frontend import expose_action
from launch.some_substitutions_type import SomeSubstitutionsType
from launch.utilities import normalize_to_list_of_substitutions, perform_substitutions


@expose_action('set_parameters_from_file')
class SetParametersFromFile(Action):
    """Gives every Node that follows (in its scope) ``--params-file <filename>``."""

    def __init__(self, filename: SomeSubstitutionsType, **kwargs: Any) -> None:
        """Create the action."""
        super().__init__(**kwargs)
        self.__filename = normalize_to_list_of_substitutions(
            str(filename) if not isinstance(filename, (str, list, tuple)) and not hasattr(
                filename, 'perform') else filename)

    @classmethod
    def parse(cls, entity: Any, parser: Any) -> Tuple[Type[Action], Dict[str, Any]]:
        """Parse the ``<set_parameters_from_file>`` tag."""
        _, kwargs = super().parse(entity, parser)
        kwargs['filename'] = parser.parse_substitution(entity.get_attr('filename'))
        return cls, kwargs

    def execute(self, context: Any) -> None:
        """Add the file to the launch configuration 'global_params'."""
        path = perform_substitutions(context, self.__filename)
        current = list(context.launch_configurations.get('global_params', []))
        context.launch_configurations['global_params'] = current + [path]
        return None
