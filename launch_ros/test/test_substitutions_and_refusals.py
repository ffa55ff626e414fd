# SPDX-License-Identifier: Apache-2.0
"""FindPackageShare/Prefix, Parameter, ExecutableInPackage; what this toolchain refuses."""

import os

from ament_index_python.packages import get_package_prefix
from launch import LaunchContext
from launch.substitutions import SubstitutionFailure
from launch_ros.actions import ComposableNodeContainer
from launch_ros.actions import LoadComposableNodes
from launch_ros.actions import SetParameter
from launch_ros.descriptions import ComposableNode
from launch_ros.substitutions import ExecutableInPackage
from launch_ros.substitutions import FindPackagePrefix
from launch_ros.substitutions import FindPackageShare
from launch_ros.substitutions import Parameter
import pytest


def test_find_package(fake_package):
    lc = LaunchContext()
    assert FindPackagePrefix('launch_ros_test_pkg').perform(lc) == str(fake_package)
    assert FindPackageShare(['launch_ros', '_test_pkg']).perform(lc) == \
        os.path.join(str(fake_package), 'share', 'launch_ros_test_pkg')
    assert FindPackagePrefix('launch').perform(lc) == get_package_prefix('launch')
    with pytest.raises(SubstitutionFailure, match="package 'launch_ros_nope' not found"):
        FindPackageShare('launch_ros_nope').perform(lc)


def test_executable_in_package(fake_package):
    lc = LaunchContext()
    assert ExecutableInPackage('echo_args', 'launch_ros_test_pkg').perform(lc) == \
        os.path.join(str(fake_package), 'lib', 'launch_ros_test_pkg', 'echo_args')
    with pytest.raises(SubstitutionFailure, match="executable 'x' not found"):
        ExecutableInPackage('x', 'launch_ros_test_pkg').perform(lc)


def test_parameter_substitution():
    lc = LaunchContext()
    with pytest.raises(SubstitutionFailure, match="parameter 'rate' not found"):
        Parameter('rate').perform(lc)
    assert Parameter('rate', default=5).perform(lc) == '5'
    SetParameter('rate', 10.0).visit(lc)
    assert Parameter('rate').perform(lc) == '10.0'


@pytest.mark.parametrize('cls', [ComposableNodeContainer, LoadComposableNodes, ComposableNode])
def test_composition_is_refused_naming_node(cls):
    with pytest.raises(RuntimeError) as info:
        cls(name='c', namespace='', package='p', executable='e')
    message = str(info.value)
    assert len(message.splitlines()) == 1
    assert 'rclcpp_components' in message and 'launch_ros.actions.Node(' in message
