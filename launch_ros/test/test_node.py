# SPDX-License-Identifier: Apache-2.0
"""launch_ros.actions.Node and the scoped ROS actions: the command line each process gets."""

import re

from conftest import argv_lines
import launch
from launch.actions import DeclareLaunchArgument
from launch.actions import GroupAction
from launch.substitutions import LaunchConfiguration
from launch_ros.actions import Node
from launch_ros.actions import PushROSNamespace
from launch_ros.actions import PushRosNamespace
from launch_ros.actions import SetParameter
from launch_ros.actions import SetParametersFromFile
from launch_ros.actions import SetRemap
from launch_ros.actions import SetUseSimTime
from launch_ros.parameter_descriptions import Parameter
import pytest
import yaml


def run(entities, argv=None):
    service = launch.LaunchService(argv=argv)
    service.include_launch_description(launch.LaunchDescription(entities))
    return service.run()


def node(**kwargs):
    kwargs.setdefault('output', 'screen')
    return Node(package='launch_ros_test_pkg', executable='echo_args', **kwargs)


def test_full_command_line(fake_package, tmp_path, capsys):
    params = tmp_path / 'params.yaml'
    params.write_text('/**:\n  ros__parameters:\n    from_file: 1\n')
    rc = run([
        DeclareLaunchArgument('value', default_value='3.5'),
        node(name='talker', namespace='ns', arguments=['--flag'],
             ros_arguments=['--log-level', 'debug'],
             parameters=[str(params), {'a': 1, 'nested': {'b': 'text', 'c': [1, 2]},
                                       's': LaunchConfiguration('value'), 'flag': 'true'},
                         Parameter('p', 2)],
             remappings=[('chatter', ['/other_', 'chatter'])])])
    out = capsys.readouterr().out
    assert rc == 0, out
    [argv] = argv_lines(out)
    assert argv[:11] == ['--flag', '--ros-args', '--log-level', 'debug', '--ros-args',
                         '-r', '__node:=talker', '-r', '__ns:=/ns', '--params-file',
                         str(params)]
    assert argv[11] == '--params-file'
    assert argv[13:] == ['-p', 'p:=2', '-r', 'chatter:=/other_chatter']
    with open(argv[12]) as f:
        written = yaml.safe_load(f)
    assert written == {'/**': {'ros__parameters': {
        'a': 1, 'nested.b': 'text', 'nested.c': [1, 2], 's': 3.5, 'flag': True}}}
    assert re.search(r'\[echo_args-\d+\] ARGV', out)


def test_minimal_node_and_exec_name(fake_package, capsys):
    rc = run([node(), node(exec_name='labelled')])
    out = capsys.readouterr().out
    assert rc == 0
    assert argv_lines(out) == [['--ros-args'], ['--ros-args']]
    assert re.search(r'\[labelled-\d+\] ARGV', out)


def test_scoped_namespace_parameters_remaps(fake_package, tmp_path, capsys):
    shared = tmp_path / 'shared.yaml'
    shared.write_text('/**:\n  ros__parameters:\n    shared: true\n')
    rc = run([
        GroupAction([
            PushRosNamespace('robot1'),
            PushROSNamespace('arm'),
            SetParameter('global_p', 7),
            SetUseSimTime(True),
            SetParametersFromFile(str(shared)),
            SetRemap('in', 'out'),
            node(name='inside'),
            node(name='absolute', namespace='/elsewhere'),
        ]),
        node(name='outside'),
    ])
    out = capsys.readouterr().out
    assert rc == 0, out
    argvs = {a[a.index('-r') + 1]: a for a in argv_lines(out)}
    inside = argvs['__node:=inside']
    assert inside == ['--ros-args', '-r', '__node:=inside', '-r', '__ns:=/robot1/arm',
                      '-p', 'global_p:=7', '-p', 'use_sim_time:=true', '--params-file',
                      str(shared), '-r', 'in:=out']
    assert '__ns:=/elsewhere' in argvs['__node:=absolute']
    assert argvs['__node:=outside'] == ['--ros-args', '-r', '__node:=outside']


def test_invalid_yaml_parameter_file_is_one_error(fake_package, tmp_path, capsys):
    bad = tmp_path / 'bad.yaml'
    bad.write_text('/**:\n  ros__parameters:\n    a: [1, 2\n')
    rc = run([node(parameters=[str(bad)])])
    out = capsys.readouterr().out
    assert rc == 1
    assert f"parameter file '{bad}' is not valid YAML, line " in out
    assert 'Traceback' not in out and 'ARGV' not in out


def test_missing_parameter_file_is_a_warning(fake_package, tmp_path, capsys):
    rc = run([node(parameters=[str(tmp_path / 'missing.yaml')])])
    out = capsys.readouterr().out
    assert rc == 0
    assert f'Parameter file path is not a file: {tmp_path / "missing.yaml"}' in out
    assert argv_lines(out) == [['--ros-args']]


@pytest.mark.parametrize('kwargs,message', [
    ({'package': 'launch_ros_test_pkg', 'executable': 'nope'},
     "executable 'nope' not found on the libexec directory"),
    ({'package': 'launch_ros_no_such_pkg', 'executable': 'x'},
     "package 'launch_ros_no_such_pkg' not found"),
    ({'package': 'launch_ros_test_pkg', 'executable': 'echo_args', 'name': 'bad name'},
     "Invalid node name 'bad name'"),
    ({'package': 'launch_ros_test_pkg', 'executable': 'echo_args', 'namespace': 'a//b'},
     "Invalid namespace '/a//b'"),
])
def test_bad_node_is_one_error_line(fake_package, capsys, kwargs, message):
    rc = run([Node(**kwargs)])
    out = capsys.readouterr().out
    assert rc == 1
    errors = [line for line in out.splitlines() if '[ERROR]' in line]
    assert len(errors) == 1 and message in errors[0], out
    assert 'Traceback' not in out


def test_node_name_property_after_execution(fake_package):
    action = node(name='n', namespace='/a/b')
    with pytest.raises(RuntimeError):
        action.node_name
    assert run([action]) == 0
    assert action.node_name == '/a/b/n'
    assert action.expanded_node_namespace == '/a/b'


def test_duplicate_node_names_warn(fake_package, capsys):
    rc = run([node(name='twin', namespace='/'), node(name='twin', namespace='/')])
    out = capsys.readouterr().out
    assert rc == 0
    assert 'there are now at least 2 nodes with the name /twin created within this launch ' \
        'context' in out
