# SPDX-License-Identifier: Apache-2.0
"""ros2/launch's test_include_launch_description.py cases."""

import os

from launch import LaunchContext
from launch import LaunchDescription
from launch import LaunchDescriptionSource
from launch import LaunchService
from launch.actions import DeclareLaunchArgument
from launch.actions import IncludeLaunchDescription
from launch.actions import ResetLaunchConfigurations
from launch.actions import SetLaunchConfiguration
from launch.launch_description_sources import PythonLaunchDescriptionSource
from launch.utilities import perform_substitutions
import pytest


def include(ld, **arguments):
    return IncludeLaunchDescription(LaunchDescriptionSource(ld),
                                    launch_arguments=arguments.items() if arguments else None)


def test_methods():
    ld = LaunchDescription()
    action = IncludeLaunchDescription(LaunchDescriptionSource(ld))
    assert 'IncludeLaunchDescription' in action.describe()
    assert isinstance(action.describe_sub_entities(), list)
    assert isinstance(action.describe_conditional_sub_entities(), list)
    assert action.visit(LaunchContext()) == [ld]
    assert action.get_asyncio_future() is None
    assert len(action.launch_arguments) == 0
    outer = LaunchDescription([action])
    assert IncludeLaunchDescription(LaunchDescriptionSource(outer)).visit(
        LaunchContext()) == [outer]


def test_launch_file_location():
    ld = LaunchDescription()
    lc = LaunchContext()
    assert IncludeLaunchDescription(LaunchDescriptionSource(ld, '<script>')).visit(lc) == [ld]
    assert lc.locals.current_launch_file_directory == '<script>'
    this_file = os.path.abspath(__file__)
    lc = LaunchContext()
    IncludeLaunchDescription(LaunchDescriptionSource(LaunchDescription(), this_file)).visit(lc)
    assert lc.locals.current_launch_file_directory == os.path.dirname(this_file)
    assert lc.locals.current_launch_file_path == this_file


def test_arguments_set_even_if_undeclared():
    ld = LaunchDescription([])
    lc = LaunchContext()
    result = include(ld, foo='FOO').visit(lc)
    assert len(result) == 2 and isinstance(result[0], SetLaunchConfiguration)
    assert perform_substitutions(lc, result[0].name) == 'foo'
    assert perform_substitutions(lc, result[0].value) == 'FOO'
    assert result[1] is ld


def test_required_arguments():
    with pytest.raises(RuntimeError, match='Included launch description missing required '
                                           'argument'):
        include(LaunchDescription([DeclareLaunchArgument('foo')])).visit(LaunchContext())
    with pytest.raises(RuntimeError, match='not_foo'):
        include(LaunchDescription([DeclareLaunchArgument('foo')]),
                not_foo='NOT_FOO').visit(LaunchContext())
    include(LaunchDescription([DeclareLaunchArgument('foo', default_value='FOO')])).visit(
        LaunchContext())


def test_nested_includes():
    # defaults of nested includes do not raise
    inner = include(LaunchDescription([DeclareLaunchArgument('foo', default_value='FOO')]))
    include(LaunchDescription([inner, DeclareLaunchArgument('foo2')]),
            foo2='FOO2').visit(LaunchContext())
    # arguments given to the nested include do not raise
    inner = include(LaunchDescription([DeclareLaunchArgument('foo')]), foo='FOO')
    include(LaunchDescription([inner, DeclareLaunchArgument('foo2')]),
            foo2='FOO2').visit(LaunchContext())
    # a parent's arguments do not reach a nested include's declaration
    inner = include(LaunchDescription([DeclareLaunchArgument('foo')]))
    outer = include(LaunchDescription([inner, DeclareLaunchArgument('foo2')]),
                    foo='FOO', foo2='FOO2')
    service = LaunchService()
    service.include_launch_description(LaunchDescription([outer]))
    assert service.run() == 1
    # unless the parent declares them again
    inner = include(LaunchDescription([DeclareLaunchArgument('foo')]))
    include(LaunchDescription([inner, DeclareLaunchArgument('foo'),
                               DeclareLaunchArgument('foo2')]),
            foo='FOO', foo2='FOO2').visit(LaunchContext())
    # arguments after a ResetLaunchConfigurations are not checked
    inner = include(LaunchDescription([DeclareLaunchArgument('foo')]))
    include(LaunchDescription([DeclareLaunchArgument('foo2'), ResetLaunchConfigurations(),
                               SetLaunchConfiguration('foo', 'asd'), inner]),
            foo2='FOO2').visit(LaunchContext())


def test_include_python_by_source_or_path(tmp_path):
    path = tmp_path / 'simple.launch.py'
    path.write_text('from launch import LaunchDescription\n'
                    'def generate_launch_description():\n    return LaunchDescription([])\n')
    for action in (IncludeLaunchDescription(PythonLaunchDescriptionSource(str(path))),
                   IncludeLaunchDescription(str(path))):
        assert isinstance(action.describe_sub_entities(), list)
        assert len(action.visit(LaunchContext())) == 1
        assert action.get_asyncio_future() is None
        assert len(action.launch_arguments) == 0
        assert action.launch_description_source.location == str(path)
