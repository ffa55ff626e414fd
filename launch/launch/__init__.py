# SPDX-License-Identifier: Apache-2.0
"""
The ROS 2 launch system's Python API, for the PyPI toolchain (which has no launch).

Module layout and public API of ros2/launch: LaunchDescription, LaunchService,
LaunchContext, LaunchIntrospector, launch.actions, launch.substitutions,
launch.conditions, launch.events, launch.event_handlers, launch.logging.
"""

from . import actions
from . import conditions
from . import event_handlers
from . import events
from . import launch_description_sources
from . import logging
from . import substitutions
from . import utilities
from .action import Action
from .condition import Condition
from .event import Event
from .event_handler import BaseEventHandler
from .event_handler import EventHandler
from .invalid_launch_file_error import InvalidLaunchFileError
from .launch_context import LaunchContext
from .launch_description import LaunchDescription
from .launch_description_entity import LaunchDescriptionEntity
from .launch_description_source import LaunchDescriptionSource
from .launch_introspector import LaunchIntrospector
from .launch_service import LaunchService
from .some_entities_type import SomeActionsType
from .some_entities_type import SomeActionsType_types_tuple
from .some_entities_type import SomeEntitiesType
from .some_entities_type import SomeEntitiesType_types_tuple
from .some_substitutions_type import SomeSubstitutionsType
from .some_substitutions_type import SomeSubstitutionsType_types_tuple
from .substitution import Substitution

__all__ = [
    'actions',
    'conditions',
    'events',
    'event_handlers',
    'launch_description_sources',
    'logging',
    'substitutions',
    'utilities',
    'Action',
    'BaseEventHandler',
    'Condition',
    'Event',
    'EventHandler',
    'InvalidLaunchFileError',
    'LaunchContext',
    'LaunchDescription',
    'LaunchDescriptionEntity',
    'LaunchDescriptionSource',
    'LaunchIntrospector',
    'LaunchService',
    'SomeActionsType',
    'SomeActionsType_types_tuple',
    'SomeEntitiesType',
    'SomeEntitiesType_types_tuple',
    'SomeSubstitutionsType',
    'SomeSubstitutionsType_types_tuple',
    'Substitution',
]
