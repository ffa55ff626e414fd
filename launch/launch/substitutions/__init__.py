# SPDX-License-Identifier: Apache-2.0
"""The substitutions of launch: text computed when the launch runs."""

from .anon_name import AnonName
from .boolean_substitution import AllSubstitution
from .boolean_substitution import AndSubstitution
from .boolean_substitution import AnySubstitution
from .boolean_substitution import NotSubstitution
from .boolean_substitution import OrSubstitution
from .command import Command
from .environment_variable import EnvironmentVariable
from .equals_substitution import EqualsSubstitution
from .file_content import FileContent
from .find_executable import FindExecutable
from .if_else_substitution import IfElseSubstitution
from .launch_configuration import LaunchConfiguration
from .launch_log_dir import LaunchLogDir
from .local_substitution import LocalSubstitution
from .not_equals_substitution import NotEqualsSubstitution
from .path_join_substitution import PathJoinSubstitution
from .python_expression import PythonExpression
from .substitution_failure import SubstitutionFailure
from .text_substitution import TextSubstitution
from .this_launch_file import ThisLaunchFile
from .this_launch_file_dir import ThisLaunchFileDir

__all__ = [
    'AllSubstitution',
    'AndSubstitution',
    'AnonName',
    'AnySubstitution',
    'Command',
    'EnvironmentVariable',
    'EqualsSubstitution',
    'FileContent',
    'FindExecutable',
    'IfElseSubstitution',
    'LaunchConfiguration',
    'LaunchLogDir',
    'LocalSubstitution',
    'NotEqualsSubstitution',
    'NotSubstitution',
    'OrSubstitution',
    'PathJoinSubstitution',
    'PythonExpression',
    'SubstitutionFailure',
    'TextSubstitution',
    'ThisLaunchFile',
    'ThisLaunchFileDir',
]
