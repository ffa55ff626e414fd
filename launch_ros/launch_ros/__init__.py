# SPDX-License-Identifier: Apache-2.0
"""
ROS specific launch actions and substitutions, for the PyPI toolchain (no launch_ros).

Module layout and public API of ros2/launch_ros: launch_ros.actions (Node,
LifecycleNode, LifecycleTransition, PushRosNamespace, SetParameter, SetParametersFromFile,
SetRemap, SetUseSimTime, ROSTimer, SetROSLogDir), launch_ros.events.lifecycle,
launch_ros.event_handlers (OnStateTransition), launch_ros.substitutions (FindPackageShare,
FindPackagePrefix, Parameter, ExecutableInPackage), launch_ros.parameter_descriptions.
"""

from . import actions
from . import descriptions
from . import event_handlers
from . import events
from . import parameter_descriptions
from . import substitutions
from . import utilities

__all__ = ['actions', 'descriptions', 'event_handlers', 'events', 'parameter_descriptions',
           'substitutions', 'utilities']
