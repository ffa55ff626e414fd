# SPDX-License-Identifier: Apache-2.0
"""SetROSLogDir: the ROS log directory (ROS_LOG_DIR) of the processes launched after it."""

import os
from typing import Any, List

from launch.action import Action
from launch.frontend import expose_action
from launch.some_substitutions_type import SomeSubstitutionsType
from launch.substitution import Substitution
from launch.utilities import normalize_to_list_of_substitutions, perform_substitutions


def _current_log_dir() -> str:
    """ROS_LOG_DIR, else where rcl logs ($ROS_HOME/log, ~/.ros/log)."""
    if os.environ.get('ROS_LOG_DIR'):
        return os.environ['ROS_LOG_DIR']
    try:
        from rclpy.logging import get_logging_directory
        return str(get_logging_directory())
    except ImportError:
        home = os.environ.get('ROS_HOME') or os.path.join(os.path.expanduser('~'), '.ros')
        return os.path.join(home, 'log')


@expose_action('set_ros_log_dir')
class SetROSLogDir(Action):
    """
    Sets ROS_LOG_DIR for the processes launched after it (in its scope).

    An absolute ``new_log_dir`` replaces the log directory; a relative one is a folder in
    the current one (ROS_LOG_DIR, else rcl's default). Scoped by GroupAction / PushEnvironment
    like SetEnvironmentVariable.
    """

    def __init__(self, new_log_dir: SomeSubstitutionsType, **kwargs: Any) -> None:
        """Create the action."""
        super().__init__(**kwargs)
        self.__log_dir = normalize_to_list_of_substitutions(new_log_dir)

    @classmethod
    def parse(cls, entity: Any, parser: Any) -> Any:
        """Parse ``<set_ros_log_dir new_log_dir="..."/>``."""
        _, kwargs = super().parse(entity, parser)
        kwargs['new_log_dir'] = parser.parse_substitution(entity.get_attr('new_log_dir'))
        return cls, kwargs

    @property
    def log_dir(self) -> List[Substitution]:
        """Return the new log directory (substitutions)."""
        return self.__log_dir

    def execute(self, context: Any) -> None:
        """Set ROS_LOG_DIR."""
        new = perform_substitutions(context, self.__log_dir)
        context.environment['ROS_LOG_DIR'] = new if os.path.isabs(new) \
            else os.path.join(_current_log_dir(), new)
        return None
