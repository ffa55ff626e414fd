# SPDX-License-Identifier: Apache-2.0
"""AnyLaunchDescriptionSource: a launch description from a launch file of any format."""

from .any_launch_file_utilities import get_launch_description_from_any_launch_file
from ..launch_description import LaunchDescription
from ..launch_description_source import LaunchDescriptionSource
from ..some_substitutions_type import SomeSubstitutionsType


class AnyLaunchDescriptionSource(LaunchDescriptionSource):
    """Loads a launch file (path: substitutions), whatever its format, when first needed."""

    def __init__(self, launch_file_path: SomeSubstitutionsType) -> None:
        """Create the source."""
        super().__init__(None, launch_file_path, 'interpreted launch file')

    def _get_launch_description(self, location: str) -> LaunchDescription:
        return get_launch_description_from_any_launch_file(location)
