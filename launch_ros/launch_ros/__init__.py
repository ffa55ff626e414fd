# SPDX-License-Identifier: Apache-2.0
"""
ROS specific launch actions and substitutions, for the PyPI toolchain (no launch_ros).

Module layout and public API of ros2/launch_ros: launch_ros.actions (Node,
PushRosNamespace, SetParameter, SetParametersFromFile, SetRemap, SetUseSimTime),
launch_ros.substitutions (FindPackageShare, FindPackagePrefix, Parameter,
ExecutableInPackage), launch_ros.parameter_descriptions.
"""

from . import actions
from . import descriptions
from . import parameter_descriptions
from . import substitutions
from . import utilities

__all__ = ['actions', 'descriptions', 'parameter_descriptions', 'substitutions', 'utilities']
