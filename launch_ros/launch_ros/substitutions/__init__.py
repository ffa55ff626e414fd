# SPDX-License-Identifier: Apache-2.0
"""The substitutions of launch_ros."""

from .executable_in_package import ExecutableInPackage
from .find_package import FindPackage
from .find_package import FindPackagePrefix
from .find_package import FindPackageShare
from .parameter import Parameter

__all__ = [
    'ExecutableInPackage',
    'FindPackage',
    'FindPackagePrefix',
    'FindPackageShare',
    'Parameter',
]
