# SPDX-License-Identifier: Apache-2.0
"""PythonLaunchDescriptionSource: a launch description from a Python launch file."""

from .python_launch_file_utilities import get_launch_description_from_python_launch_file
from ..launch_description import LaunchDescription
from ..launch_description_source import LaunchDescriptionSource
from ..some_substitutions_type import SomeSubstitutionsType


class PythonLaunchDescriptionSource(LaunchDescriptionSource):
    """Loads a Python launch file (path: substitutions) when first needed."""

    def __init__(self, launch_file_path: SomeSubstitutionsType) -> None:
        """Create the source."""
        super().__init__(None, launch_file_path, 'interpreted python launch file')

    def _get_launch_description(self, location: str) -> LaunchDescription:
        return get_launch_description_from_python_launch_file(location)
