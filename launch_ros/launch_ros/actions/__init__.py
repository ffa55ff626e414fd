# SPDX-License-Identifier: Apache-2.0
"""The actions of launch_ros."""

from .lifecycle_node import LifecycleNode
from .lifecycle_transition import LifecycleTransition
from .node import Node
from .push_ros_namespace import PushROSNamespace
from .push_ros_namespace import PushRosNamespace
from .ros_timer import ROSTimer
from .ros_timer import RosTimer
from .set_parameter import SetParameter
from .set_parameters_from_file import SetParametersFromFile
from .set_remap import SetRemap
from .set_ros_log_dir import SetROSLogDir
from .set_use_sim_time import SetUseSimTime
from ..refusals import ComposableNodeContainer
from ..refusals import LoadComposableNodes

__all__ = [
    'ComposableNodeContainer',
    'LifecycleNode',
    'LifecycleTransition',
    'LoadComposableNodes',
    'Node',
    'PushROSNamespace',
    'PushRosNamespace',
    'ROSTimer',
    'RosTimer',
    'SetParameter',
    'SetParametersFromFile',
    'SetRemap',
    'SetROSLogDir',
    'SetUseSimTime',
]
