# SPDX-License-Identifier: Apache-2.0
"""The actions of launch."""

from .append_environment_variable import AppendEnvironmentVariable
from .declare_launch_argument import DeclareLaunchArgument
from .emit_event import EmitEvent
from .execute_local import ExecuteLocal
from .execute_process import ExecuteProcess
from .group_action import GroupAction
from .include_launch_description import IncludeLaunchDescription
from .log_info import LogInfo
from .opaque_coroutine import OpaqueCoroutine
from .opaque_function import OpaqueFunction
from .pop_environment import PopEnvironment
from .pop_launch_configurations import PopLaunchConfigurations
from .push_environment import PushEnvironment
from .push_launch_configurations import PushLaunchConfigurations
from .register_event_handler import RegisterEventHandler
from .reset_environment import ResetEnvironment
from .reset_launch_configurations import ResetLaunchConfigurations
from .set_environment_variable import SetEnvironmentVariable
from .set_launch_configuration import SetLaunchConfiguration
from .shutdown_action import Shutdown
from .timer_action import TimerAction
from .unregister_event_handler import UnregisterEventHandler
from .unset_environment_variable import UnsetEnvironmentVariable
from .unset_launch_configuration import UnsetLaunchConfiguration

__all__ = [
    'AppendEnvironmentVariable',
    'DeclareLaunchArgument',
    'EmitEvent',
    'ExecuteLocal',
    'ExecuteProcess',
    'GroupAction',
    'IncludeLaunchDescription',
    'LogInfo',
    'OpaqueCoroutine',
    'OpaqueFunction',
    'PopEnvironment',
    'PopLaunchConfigurations',
    'PushEnvironment',
    'PushLaunchConfigurations',
    'RegisterEventHandler',
    'ResetEnvironment',
    'ResetLaunchConfigurations',
    'SetEnvironmentVariable',
    'SetLaunchConfiguration',
    'Shutdown',
    'TimerAction',
    'UnregisterEventHandler',
    'UnsetEnvironmentVariable',
    'UnsetLaunchConfiguration',
]
