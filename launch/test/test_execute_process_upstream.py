# SPDX-License-Identifier: Apache-2.0
"""ros2/launch's test_execute_process.py cases, with shorter periods."""

import asyncio
import os
import signal
import sys

from launch import LaunchContext
from launch import LaunchDescription
from launch import LaunchService
from launch.actions import EmitEvent
from launch.actions import ExecuteProcess
from launch.actions import OpaqueFunction
from launch.actions import RegisterEventHandler
from launch.actions import SetLaunchConfiguration
from launch.actions import Shutdown
from launch.actions import TimerAction
from launch.event_handlers import OnProcessStart
from launch.events import Shutdown as ShutdownEvent
from launch.substitutions import LaunchConfiguration
import pytest


@pytest.mark.parametrize('env,expected', [
    (None, [True, False]),
    ({'TEST_NEW_ENV': '2'}, [False, True]),
])
def test_execute_process_with_env(env, expected, monkeypatch):
    monkeypatch.setenv('TEST_CHANGE_CURRENT_ENV', '1')
    executable = ExecuteProcess(cmd=[sys.executable, '-c', 'pass'], output='screen', env=env,
                                additional_env={'TEST_PROCESS_WITH_ENV': 'Hello World'})
    service = LaunchService()
    service.include_launch_description(LaunchDescription([executable]))
    assert service.run() == 0
    final = executable.process_details['env']
    assert final['TEST_PROCESS_WITH_ENV'] == 'Hello World'
    assert ('TEST_CHANGE_CURRENT_ENV' in final) is expected[0]
    assert ('TEST_NEW_ENV' in final) is expected[1]


def test_on_exit_callback_and_actions():
    called = {}
    with_callback = ExecuteProcess(cmd=[sys.executable, '-c', "print('callback')"],
                                   on_exit=lambda event, context: called.update(cb=True))
    assert with_callback.get_sub_entities() == []
    action = OpaqueFunction(function=lambda context: called.update(action=True))
    with_action = ExecuteProcess(cmd=[sys.executable, '-c', "print('action')"],
                                 on_exit=[action])
    assert with_action.get_sub_entities() == [action]
    service = LaunchService()
    service.include_launch_description(LaunchDescription([with_callback, with_action]))
    assert service.run() == 0
    assert called == {'cb': True, 'action': True}


@pytest.mark.parametrize('noninteractive,returncode', [
    (True, -signal.SIGINT),      # launch sends SIGINT itself
    (False, -signal.SIGTERM),    # Ctrl-C reached the process group: only the escalation
])
def test_shutdown_due_to_sigint(noninteractive, returncode):
    result = {}
    process = ExecuteProcess(cmd=[sys.executable, '-S', '-c', 'import time; time.sleep(30)'],
                             sigterm_timeout='0.5',
                             on_exit=lambda event, context: result.update(rc=event.returncode))
    service = LaunchService(noninteractive=noninteractive)
    service.include_launch_description(LaunchDescription([
        process,
        RegisterEventHandler(OnProcessStart(target_action=process, on_start=[
            EmitEvent(event=ShutdownEvent(reason='none', due_to_sigint=True))])),
    ]))
    assert service.run() == 0
    assert result['rc'] == returncode


def on_exit_counter():
    def count(event, context):
        count.called += 1
    count.called = 0
    return count


def test_respawn_with_delay():
    count = on_exit_counter()
    service = LaunchService()
    service.include_launch_description(LaunchDescription([
        ExecuteProcess(cmd=[sys.executable, '-c', "print('action')"], respawn=True,
                       respawn_delay=1.0, on_exit=count),
        TimerAction(period=1.5, actions=[Shutdown(reason='Timer expired')]),
    ]))
    assert service.run() == 0
    assert count.called == 2      # the first exit and the respawned one


@pytest.mark.parametrize('respawn,expected', [('False', 1), ('True', 2)])
def test_respawn_substitution(respawn, expected):
    count = on_exit_counter()
    service = LaunchService()
    service.context.launch_configurations['respawn'] = respawn
    service.include_launch_description(LaunchDescription([
        ExecuteProcess(cmd=[sys.executable, '-c', "print('action')"],
                       respawn=LaunchConfiguration('respawn'), respawn_delay=1.0,
                       on_exit=count),
        TimerAction(period=1.5, actions=[Shutdown(reason='Timer expired')]),
    ]))
    assert service.run() == 0
    assert count.called == expected


def test_respawn_max_retries():
    def on_exit(event, context):
        on_exit.called += 1
        if on_exit.called == 3:
            TimerAction(period=0.5, actions=[Shutdown(reason='Timer expired')]).execute(
                context)
    on_exit.called = 0
    service = LaunchService()
    service.include_launch_description(LaunchDescription([
        ExecuteProcess(cmd=[sys.executable, '-c', "print('action')"], respawn=True,
                       respawn_max_retries=2, on_exit=on_exit),
        TimerAction(period=10.0, actions=[Shutdown(reason='Timer expired')]),
    ]))
    assert service.run() == 0
    assert on_exit.called == 3


@pytest.fixture
def context():
    loop = asyncio.new_event_loop()
    lc = LaunchContext()
    lc._set_asyncio_loop(loop)
    yield lc
    for task in asyncio.all_tasks(loop):
        task.cancel()
    loop.run_until_complete(asyncio.sleep(0))
    loop.close()


@pytest.mark.parametrize('prefix_filter,prefix,expected', [
    (os.path.basename(sys.executable), None, ['time']),
    ('no-match', None, []),
    ('no-match', 'echo', ['echo']),
])
def test_prefix_filter(context, prefix_filter, prefix, expected):
    SetLaunchConfiguration('launch-prefix', 'time').visit(context)
    SetLaunchConfiguration('launch-prefix-filter', prefix_filter).visit(context)
    assert len(context.launch_configurations) == 2
    process = ExecuteProcess(prefix=prefix, cmd=[sys.executable, '-c', "print('action')"],
                             output='screen')
    process.execute(context)
    cmd = process.process_details['cmd']
    assert [part for part in ('time', 'echo') if part in cmd] == expected
