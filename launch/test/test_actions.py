# SPDX-License-Identifier: Apache-2.0
"""The actions without processes, run by a LaunchService (upstream's test/launch/actions)."""

import os
import textwrap

import launch
from launch.actions import AppendEnvironmentVariable
from launch.actions import DeclareLaunchArgument
from launch.actions import EmitEvent
from launch.actions import GroupAction
from launch.actions import IncludeLaunchDescription
from launch.actions import LogInfo
from launch.actions import OpaqueFunction
from launch.actions import PopEnvironment
from launch.actions import PopLaunchConfigurations
from launch.actions import PushEnvironment
from launch.actions import PushLaunchConfigurations
from launch.actions import RegisterEventHandler
from launch.actions import ResetLaunchConfigurations
from launch.actions import SetEnvironmentVariable
from launch.actions import SetLaunchConfiguration
from launch.actions import Shutdown
from launch.actions import TimerAction
from launch.actions import UnregisterEventHandler
from launch.actions import UnsetEnvironmentVariable
from launch.actions import UnsetLaunchConfiguration
from launch.conditions import IfCondition
from launch.event_handlers import OnExecutionComplete
from launch.event_handlers import OnShutdown
from launch.events import Shutdown as ShutdownEvent
from launch.launch_description_sources import PythonLaunchDescriptionSource
from launch.substitutions import LaunchConfiguration
from launch.substitutions import ThisLaunchFile
from launch.substitutions import ThisLaunchFileDir
from launch_helpers import run
import pytest


def record(seen, key, value):
    """Return an OpaqueFunction that stores ``value`` (performed) in ``seen[key]``."""
    def store(context):
        seen[key] = launch.utilities.perform_substitutions(
            context, launch.utilities.normalize_to_list_of_substitutions(value))
    return OpaqueFunction(function=store)


def test_declare_launch_argument_default_and_given():
    seen = {}
    rc, _ = run([DeclareLaunchArgument('a', default_value='da'),
                 DeclareLaunchArgument('b', default_value=['x', LaunchConfiguration('a')]),
                 record(seen, 'a', LaunchConfiguration('a')),
                 record(seen, 'b', LaunchConfiguration('b'))])
    assert rc == 0 and seen == {'a': 'da', 'b': 'xda'}


def test_declare_launch_argument_required_and_choices():
    with pytest.raises(RuntimeError, match='Provided choices arg is empty'):
        DeclareLaunchArgument('c', choices=[])
    with pytest.raises(RuntimeError, match='is not in provided choices'):
        DeclareLaunchArgument('c', default_value='z', choices=['x', 'y'])
    arg = DeclareLaunchArgument('c', default_value='x', choices=['x', 'y'], description='D')
    assert arg.description == "D. Valid choices are: ['x', 'y']"
    assert DeclareLaunchArgument('d').description == 'no description given'
    rc, _ = run([SetLaunchConfiguration('c', 'z'), arg])
    assert rc == 1
    rc, _ = run([DeclareLaunchArgument('required')])
    assert rc == 1


def test_set_unset_launch_configuration():
    seen = {}
    rc, _ = run([SetLaunchConfiguration(['na', 'me'], 'value'),
                 record(seen, 'set', LaunchConfiguration('name')),
                 UnsetLaunchConfiguration('name'),
                 record(seen, 'unset', LaunchConfiguration('name', default='gone'))])
    assert rc == 0 and seen == {'set': 'value', 'unset': 'gone'}


def test_push_pop_and_reset_launch_configurations():
    seen = {}
    rc, _ = run([SetLaunchConfiguration('k', 'outer'),
                 PushLaunchConfigurations(),
                 SetLaunchConfiguration('k', 'inner'),
                 SetLaunchConfiguration('only_inner', 'x'),
                 record(seen, 'inner', LaunchConfiguration('k')),
                 PopLaunchConfigurations(),
                 record(seen, 'outer', LaunchConfiguration('k')),
                 record(seen, 'only', LaunchConfiguration('only_inner', default='unset')),
                 ResetLaunchConfigurations({'kept': LaunchConfiguration('k')}),
                 record(seen, 'kept', LaunchConfiguration('kept')),
                 record(seen, 'k', LaunchConfiguration('k', default='reset'))])
    assert rc == 0
    assert seen == {'inner': 'inner', 'outer': 'outer', 'only': 'unset', 'kept': 'outer',
                    'k': 'reset'}


def test_environment_actions(monkeypatch):
    monkeypatch.setenv('LAUNCH_TEST_PATHS', 'a')
    monkeypatch.setenv('LAUNCH_TEST_GONE', 'here')
    monkeypatch.delenv('LAUNCH_TEST_NEW', raising=False)
    seen = {}
    rc, _ = run([PushEnvironment(),
                 SetEnvironmentVariable('LAUNCH_TEST_NEW', ['v', '1']),
                 AppendEnvironmentVariable('LAUNCH_TEST_PATHS', 'b'),
                 AppendEnvironmentVariable('LAUNCH_TEST_PATHS', 'z', prepend=True),
                 AppendEnvironmentVariable('LAUNCH_TEST_PATHS', 'c', separator=';'),
                 UnsetEnvironmentVariable('LAUNCH_TEST_GONE'),
                 OpaqueFunction(function=lambda context: seen.update(
                     new=os.environ.get('LAUNCH_TEST_NEW'),
                     paths=os.environ.get('LAUNCH_TEST_PATHS'),
                     gone=os.environ.get('LAUNCH_TEST_GONE'))),
                 PopEnvironment()])
    assert rc == 0
    assert seen == {'new': 'v1', 'paths': os.pathsep.join(['z', 'a', 'b']) + ';c',
                    'gone': None}
    assert os.environ['LAUNCH_TEST_PATHS'] == 'a' and 'LAUNCH_TEST_NEW' not in os.environ


def test_group_action_scoping_and_forwarding():
    seen = {}
    rc, _ = run([
        SetLaunchConfiguration('outer', 'o'),
        GroupAction([SetLaunchConfiguration('inside', 'i'),
                     record(seen, 'forwarded', LaunchConfiguration('outer')),
                     record(seen, 'given', LaunchConfiguration('g'))],
                    launch_configurations={'g': 'gv'}),
        record(seen, 'leaked', LaunchConfiguration('inside', default='no')),
        GroupAction([record(seen, 'not_forwarded', LaunchConfiguration('outer', default='no')),
                     record(seen, 'kept', LaunchConfiguration('g'))],
                    forwarding=False, launch_configurations={'g': LaunchConfiguration('outer')}),
        GroupAction([SetLaunchConfiguration('unscoped', 'u')], scoped=False),
        record(seen, 'unscoped', LaunchConfiguration('unscoped')),
        GroupAction([record(seen, 'skipped', 'yes')], condition=IfCondition('false')),
    ])
    assert rc == 0
    assert seen == {'forwarded': 'o', 'given': 'gv', 'leaked': 'no', 'not_forwarded': 'no',
                    'kept': 'o', 'unscoped': 'u'}


def test_include_launch_description_arguments_and_locals(tmp_path):
    included = tmp_path / 'included.launch.py'
    included.write_text(textwrap.dedent("""
        from launch import LaunchDescription
        from launch.actions import DeclareLaunchArgument, OpaqueFunction
        from launch.substitutions import LaunchConfiguration, ThisLaunchFile, ThisLaunchFileDir

        def generate_launch_description():
            def store(context):
                SEEN['arg'] = LaunchConfiguration('arg').perform(context)
                SEEN['file'] = ThisLaunchFile().perform(context)
                SEEN['dir'] = ThisLaunchFileDir().perform(context)
            return LaunchDescription([DeclareLaunchArgument('arg'),
                                      OpaqueFunction(function=store)])
        SEEN = __import__('builtins').LAUNCH_TEST_SEEN
        """))
    import builtins
    seen = builtins.LAUNCH_TEST_SEEN = {}
    try:
        rc, _ = run([IncludeLaunchDescription(PythonLaunchDescriptionSource(str(included)),
                                              launch_arguments={'arg': 'given'}.items())])
        assert rc == 0
        assert seen == {'arg': 'given', 'file': str(included), 'dir': str(tmp_path)}
        seen.clear()
        rc, _ = run([IncludeLaunchDescription(PythonLaunchDescriptionSource(str(included)))])
        assert rc == 1 and seen == {}
    finally:
        del builtins.LAUNCH_TEST_SEEN


def test_include_missing_argument_message(tmp_path, capsys):
    included = tmp_path / 'needs.launch.py'
    included.write_text(
        'from launch import LaunchDescription\n'
        'from launch.actions import DeclareLaunchArgument\n'
        'def generate_launch_description():\n'
        "    return LaunchDescription([DeclareLaunchArgument('x', description='an x')])\n")
    rc, _ = run([IncludeLaunchDescription(str(included), launch_arguments=[('y', '1')])])
    out = capsys.readouterr().out
    assert rc == 1
    assert ("Included launch description missing required argument 'x' (description: 'an x'), "
            'given: [y]') in out
    assert 'Traceback' not in out


def test_this_launch_file_outside_a_file_fails_the_launch():
    rc, _ = run([LogInfo(msg=ThisLaunchFileDir())])
    assert rc == 1
    rc, _ = run([LogInfo(msg=ThisLaunchFile())])
    assert rc == 1


def test_log_info_and_condition(capsys):
    rc, _ = run([SetLaunchConfiguration('who', 'world'),
                 LogInfo(msg=['hello ', LaunchConfiguration('who')]),
                 LogInfo(msg='hidden', condition=IfCondition('false'))])
    out = capsys.readouterr().out
    assert rc == 0
    assert '[INFO] [launch.user]: hello world' in out
    assert 'hidden' not in out


def test_opaque_function_args_and_returned_entities():
    seen = {}

    def function(context, a, *, b):
        seen['args'] = (a, b)
        return [record(seen, 'returned', 'yes')]
    rc, _ = run([OpaqueFunction(function=function, args=[1], kwargs={'b': 2})])
    assert rc == 0 and seen == {'args': (1, 2), 'returned': 'yes'}
    with pytest.raises(TypeError):
        OpaqueFunction(function='not callable')


def test_register_unregister_event_handler():
    calls = []
    handler = OnShutdown(on_shutdown=lambda event, context: calls.append(event.reason))
    rc, _ = run([RegisterEventHandler(handler)])
    assert rc == 0 and calls == ['idle']
    calls.clear()
    rc, _ = run([RegisterEventHandler(handler), UnregisterEventHandler(handler)])
    assert rc == 0 and calls == []
    rc, _ = run([UnregisterEventHandler(OnShutdown(on_shutdown=[]))])
    assert rc == 1


def test_on_execution_complete():
    seen = []
    target = LogInfo(msg='target')
    rc, _ = run([RegisterEventHandler(OnExecutionComplete(
        target_action=target, on_completion=lambda event, context: seen.append(event.action))),
        target])
    assert rc == 0 and seen == [target]


def test_timer_action_fires_after_period():
    import time
    seen = {}
    start = time.monotonic()

    def fired(context):
        seen['at'] = time.monotonic() - start
    rc, _ = run([TimerAction(period=0.2, actions=[OpaqueFunction(function=fired)])])
    assert rc == 0 and 0.15 < seen['at'] < 2.0


def test_timer_action_canceled_by_shutdown():
    seen = {}
    rc, _ = run([TimerAction(period=5.0, actions=[record(seen, 'fired', 'yes')]),
                 TimerAction(period=0.1, actions=[Shutdown(reason='done early')])])
    assert rc == 0 and seen == {}


def test_shutdown_action_and_emit_event():
    reasons = []
    rc, _ = run([RegisterEventHandler(OnShutdown(
        on_shutdown=lambda event, context: reasons.append(event.reason))),
        EmitEvent(event=ShutdownEvent(reason='because'))])
    assert rc == 0 and reasons == ['because']
    with pytest.raises(RuntimeError):
        EmitEvent(event='not an event')
