# SPDX-License-Identifier: Apache-2.0
"""The substitutions, as ros2/launch's test/launch/substitutions tests pin them down."""

import os
import re
import shutil

from launch import LaunchContext
from launch.substitutions import AllSubstitution
from launch.substitutions import AndSubstitution
from launch.substitutions import AnonName
from launch.substitutions import AnySubstitution
from launch.substitutions import Command
from launch.substitutions import EnvironmentVariable
from launch.substitutions import EqualsSubstitution
from launch.substitutions import FindExecutable
from launch.substitutions import IfElseSubstitution
from launch.substitutions import LaunchConfiguration
from launch.substitutions import LocalSubstitution
from launch.substitutions import NotEqualsSubstitution
from launch.substitutions import NotSubstitution
from launch.substitutions import OrSubstitution
from launch.substitutions import PathJoinSubstitution
from launch.substitutions import PythonExpression
from launch.substitutions import SubstitutionFailure
from launch.substitutions import TextSubstitution
from launch.substitutions import ThisLaunchFile
from launch.substitutions import ThisLaunchFileDir
from launch.utilities import normalize_to_list_of_substitutions
from launch.utilities import perform_substitutions
import pytest


def test_anon_name_is_stable_per_name():
    lc = LaunchContext()
    first = AnonName('foo').perform(lc)
    assert re.match(r'foo_[a-zA-Z0-9_]+_[0-9]+_[0-9]+', first)
    assert AnonName('foo').perform(lc) == first
    assert re.match(r'car_[a-zA-Z0-9_]+_[0-9]+_[0-9]+', AnonName('car').perform(lc))
    assert AnonName('car').perform(lc) != first


def test_not_and_or():
    lc = LaunchContext()
    assert NotSubstitution('true').perform(lc) == 'false'
    assert NotSubstitution('0').perform(lc) == 'true'
    table = [('true', 'true'), ('true', 'false'), ('false', 'true'), ('false', 'false'),
             ('1', '0'), ('0', '1'), ('1', '1'), ('0', '0')]
    for left, right in table:
        lb, rb = left in ('true', '1'), right in ('true', '1')
        assert AndSubstitution(left, right).perform(lc) == str(lb and rb).lower()
        assert OrSubstitution(left, right).perform(lc) == str(lb or rb).lower()
    for sub in (NotSubstitution('not-condition-expression'),
                AndSubstitution('not-condition-expression', 'true'),
                OrSubstitution('true', 'not-condition-expression')):
        with pytest.raises(SubstitutionFailure):
            sub.perform(lc)


def test_any_all():
    lc = LaunchContext()
    assert AnySubstitution().perform(lc) == 'false'
    assert AllSubstitution().perform(lc) == 'true'
    assert AnySubstitution('false', '0', 'true').perform(lc) == 'true'
    assert AllSubstitution('1', 'true', '0').perform(lc) == 'false'
    with pytest.raises(SubstitutionFailure):
        AllSubstitution('true', 'not-condition-expression').perform(lc)


@pytest.mark.parametrize('left,right,expected', [
    (None, None, 'true'), (None, '', 'true'), (None, 'something', 'false'),
    (True, 'True', 'true'), (False, 'false', 'true'), (True, 1, 'true'), (True, '0', 'false'),
    (True, '10', 'false'), (False, '-1', 'false'), ('true', '1', 'true'),
    (1, -1, 'false'), (10, 10.0, 'true'), (10, 10 + 1e-10, 'true'), (10, 10.1, 'false'),
    (float('nan'), float('nan'), 'false'), ('nan', 'nan', 'false'),
    (float('inf'), 'inf', 'true'), ('inf', '-inf', 'false'),
    ('wow', 'wow', 'true'), ('wow', True, 'false'), ('wow', 0, 'false'),
])
def test_equals_both_ways(left, right, expected):
    lc = LaunchContext()
    assert EqualsSubstitution(left, right).perform(lc) == expected
    assert EqualsSubstitution(right, left).perform(lc) == expected
    other = 'false' if expected == 'true' else 'true'
    assert NotEqualsSubstitution(left, right).perform(lc) == other


def test_equals_with_substitution():
    path = ['asd', 'bsd', 'cds']
    assert EqualsSubstitution(PathJoinSubstitution(path), os.path.join(*path)).perform(
        LaunchContext()) == 'true'


def test_python_expression_modules():
    lc = LaunchContext()
    assert PythonExpression(['math.ceil(1.6)']).perform(lc) == '2'
    assert PythonExpression(['ceil(1.6)']).perform(lc) == '2'
    assert PythonExpression(['math.ceil(1.6)']).describe() == "PythonExpr('math.ceil(1.6)', " \
        "['math'])"
    with pytest.raises(NameError):
        PythonExpression(['sys.getrefcount(str("x"))']).perform(lc)
    with pytest.raises(NameError):
        PythonExpression(['math.ceil(1.6)'], []).perform(lc)
    assert int(PythonExpression(['sys.getrefcount(str("x"))'], ['sys']).perform(lc)) > 0
    lc.launch_configurations['n'] = '3'
    assert PythonExpression([LaunchConfiguration('n'), ' * 2']).perform(lc) == '6'


@pytest.fixture
def commands(tmp_path):
    scripts = {'normal': 'echo asd bsd csd', 'failing': 'exit 1',
               'with_stderr': 'echo asd bsd >&2'}
    paths = {}
    for name, body in scripts.items():
        path = tmp_path / f'{name}_command.bash'
        path.write_text(f'#!/bin/sh\n{body}\n')
        path.chmod(0o755)
        paths[name] = str(path)
    return paths


def test_command(commands):
    lc = LaunchContext()
    assert Command(commands['normal']).perform(lc) == 'asd bsd csd\n'
    with pytest.raises(SubstitutionFailure, match='file not found:'):
        Command('ros2_launch_test_command_i_m_not_a_command').perform(lc)
    with pytest.raises(SubstitutionFailure, match='executed command failed. Command: .*failing'):
        Command(commands['failing']).perform(lc)
    with pytest.raises(SubstitutionFailure,
                       match=r'executed command showed stderr output. Command: .*with_stderr'
                             r'[\w\W]*asd bsd'):
        Command(commands['with_stderr']).perform(lc)
    assert Command(commands['with_stderr'], on_stderr='ignore').perform(lc) == ''
    assert Command(commands['with_stderr'], on_stderr='warn').perform(lc) == ''
    assert Command(commands['with_stderr'], on_stderr='capture').perform(lc) == 'asd bsd\n'


def test_environment_variable(monkeypatch):
    lc = LaunchContext()
    monkeypatch.setenv('LAUNCH_TEST_VAR', 'value')
    monkeypatch.delenv('LAUNCH_TEST_UNSET', raising=False)
    assert EnvironmentVariable('LAUNCH_TEST_VAR').perform(lc) == 'value'
    assert EnvironmentVariable('LAUNCH_TEST_UNSET', default_value='d').perform(lc) == 'd'
    with pytest.raises(SubstitutionFailure, match="'LAUNCH_TEST_UNSET' does not exist"):
        EnvironmentVariable('LAUNCH_TEST_UNSET').perform(lc)


def test_path_join_and_operator():
    lc = LaunchContext()
    lc.launch_configurations['dir'] = 'config'
    sub = PathJoinSubstitution(['base', LaunchConfiguration('dir'), ['file', '.yaml']])
    assert sub.perform(lc) == os.path.join('base', 'config', 'file.yaml')
    assert (PathJoinSubstitution(['a']) / 'b' / LaunchConfiguration('dir')).perform(lc) == \
        os.path.join('a', 'b', 'config')


def test_launch_configuration_default_and_failure():
    lc = LaunchContext()
    with pytest.raises(SubstitutionFailure, match="launch configuration 'x' does not exist"):
        LaunchConfiguration('x').perform(lc)
    assert LaunchConfiguration('x', default='d').perform(lc) == 'd'
    assert LaunchConfiguration('x', default=5).perform(lc) == '5'
    lc.launch_configurations['x'] = 'set'
    assert LaunchConfiguration(['', 'x']).perform(lc) == 'set'


def test_find_executable():
    lc = LaunchContext()
    assert FindExecutable(name='sh').perform(lc) == shutil.which('sh')
    with pytest.raises(SubstitutionFailure, match='not found on the PATH'):
        FindExecutable(name='launch_test_no_such_executable').perform(lc)


def test_this_launch_file_outside_and_inside():
    lc = LaunchContext()
    with pytest.raises(SubstitutionFailure):
        ThisLaunchFile().perform(lc)
    with pytest.raises(SubstitutionFailure):
        ThisLaunchFileDir().perform(lc)
    lc.extend_locals({'current_launch_file_path': '/a/b.launch.py',
                      'current_launch_file_directory': '/a'})
    assert ThisLaunchFile().perform(lc) == '/a/b.launch.py'
    assert ThisLaunchFileDir().perform(lc) == '/a'


def test_local_substitution():
    lc = LaunchContext()
    lc.extend_locals({'ros_specific_arguments': {'name': '__node:=n'}})
    assert LocalSubstitution("ros_specific_arguments['name']").perform(lc) == '__node:=n'
    with pytest.raises(SubstitutionFailure):
        LocalSubstitution('missing').perform(lc)


def test_if_else():
    lc = LaunchContext()
    assert IfElseSubstitution('true', 'a', 'b').perform(lc) == 'a'
    assert IfElseSubstitution('0', 'a', 'b').perform(lc) == 'b'


def test_normalize_and_perform():
    lc = LaunchContext()
    lc.launch_configurations['who'] = 'world'
    subs = normalize_to_list_of_substitutions(['hello ', LaunchConfiguration('who')])
    assert isinstance(subs[0], TextSubstitution)
    assert perform_substitutions(lc, subs) == 'hello world'
    assert len(normalize_to_list_of_substitutions('text')) == 1
    with pytest.raises(TypeError):
        normalize_to_list_of_substitutions([1])
    with pytest.raises(TypeError):
        TextSubstitution(text=1)


@pytest.mark.parametrize('cls, arguments, message', [
    (EnvironmentVariable, [], 'EnvironmentVariable takes 1 to 2 argument(s), got 0'),
    (EnvironmentVariable, ['a', 'b', 'c'], 'EnvironmentVariable takes 1 to 2 argument(s), got 3'),
    (EqualsSubstitution, ['a'], 'EqualsSubstitution takes 2 argument(s), got 1'),
    (ThisLaunchFileDir, ['a'], 'ThisLaunchFileDir takes 0 argument(s), got 1'),
])
def test_frontend_argument_count(cls, arguments, message):
    # $(env), $(eq), $(dirname) with the wrong number of arguments: the frontend's error
    data = [normalize_to_list_of_substitutions(a) for a in arguments]
    with pytest.raises(TypeError, match=re.escape(message)):
        cls.parse(data)


def test_frontend_arguments_by_position():
    data = [normalize_to_list_of_substitutions(a) for a in ('HOME', 'none')]
    cls, kwargs = EnvironmentVariable.parse(data)
    assert cls is EnvironmentVariable and list(kwargs) == ['name', 'default_value']
    assert LaunchConfiguration.parse(data[:1])[1] == {'variable_name': data[0]}
    assert ThisLaunchFileDir.parse([]) == (ThisLaunchFileDir, {})
    assert ThisLaunchFileDir().describe() == 'ThisLaunchFileDir()'
