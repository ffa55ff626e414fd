# SPDX-License-Identifier: Apache-2.0
"""IncludeLaunchDescription: an event asking launch to include a launch description."""

from ..event import Event
from ..launch_description_entity import LaunchDescriptionEntity


class IncludeLaunchDescription(Event):
    """Emitted (e.g. by LaunchService.include_launch_description) to include a description."""

    name = 'launch.events.IncludeLaunchDescription'

    def __init__(self, launch_description: LaunchDescriptionEntity) -> None:
        """Create the event."""
        self.__launch_description = launch_description

    @property
    def launch_description(self) -> LaunchDescriptionEntity:
        """Getter for launch_description."""
        return self.__launch_description
