# SPDX-License-Identifier: Apache-2.0
"""LaunchService: run, run_async, shutdown, argv, exit codes; LaunchDescription arguments."""

import asyncio
import threading

import launch
from launch.actions import DeclareLaunchArgument
from launch.actions import ExecuteProcess
from launch.actions import GroupAction
from launch.actions import IncludeLaunchDescription
from launch.actions import OpaqueFunction
from launch.actions import RegisterEventHandler
from launch.actions import TimerAction
from launch.conditions import IfCondition
from launch.event_handlers import OnShutdown
from launch_helpers import run


def test_idle_launch_returns_zero():
    rc, service = run([])
    assert rc == 0
    assert service.context.argv == []


def test_argv_is_kept():
    _, service = run([], argv=['a:=1'])
    assert service.context.argv == ['a:=1']


def test_exception_in_an_action_returns_one_and_shuts_down(capsys):
    reasons = []

    def fail(context):
        raise ValueError('broken on purpose')
    rc, _ = run([RegisterEventHandler(OnShutdown(
        on_shutdown=lambda event, context: reasons.append(event.reason))),
        OpaqueFunction(function=fail)])
    out = capsys.readouterr().out
    assert rc == 1
    assert '[ERROR] [launch]: Caught exception in launch (see debug for traceback): ' \
        'broken on purpose' in out
    assert 'Traceback' not in out
    assert len(reasons) == 1 and 'broken on purpose' in reasons[0]


def test_shutdown_from_another_thread_stops_a_long_process():
    service = launch.LaunchService()
    service.include_launch_description(launch.LaunchDescription([
        ExecuteProcess(cmd=['sleep', '30'])]))
    timer = threading.Timer(0.5, service.shutdown)
    timer.start()
    try:
        assert service.run() == 0
    finally:
        timer.cancel()


def test_shutdown_when_not_running_does_nothing():
    assert launch.LaunchService().shutdown() is None


def test_run_async_in_own_loop():
    seen = []
    service = launch.LaunchService()
    service.include_launch_description(launch.LaunchDescription([
        OpaqueFunction(function=lambda context: seen.append(context.asyncio_loop))]))
    loop = asyncio.new_event_loop()
    try:
        assert loop.run_until_complete(service.run_async()) == 0
    finally:
        loop.close()
    assert seen == [loop]


def test_run_without_shutdown_when_idle_waits_for_shutdown():
    service = launch.LaunchService()
    service.include_launch_description(launch.LaunchDescription([
        TimerAction(period=0.2, actions=[OpaqueFunction(
            function=lambda context: service.shutdown())])]))
    assert service.run(shutdown_when_idle=False) == 0


def test_launch_arguments_of_a_description(tmp_path):
    inner = tmp_path / 'inner.launch.py'
    inner.write_text(
        'from launch import LaunchDescription\n'
        'from launch.actions import DeclareLaunchArgument\n'
        'def generate_launch_description():\n'
        "    return LaunchDescription([DeclareLaunchArgument('inner_arg')])\n")
    description = launch.LaunchDescription([
        DeclareLaunchArgument('a', default_value='1', description='first'),
        DeclareLaunchArgument('a', default_value='2'),
        GroupAction([DeclareLaunchArgument('b')], condition=IfCondition('true')),
        IncludeLaunchDescription(str(inner)),
    ])
    arguments = description.get_launch_arguments()
    assert [a.name for a in arguments] == ['a', 'b', 'inner_arg']
    assert [a._conditionally_included for a in arguments] == [False, True, False]
    pairs = description.get_launch_arguments_with_include_launch_description_actions()
    assert pairs[0][1] is None and len(pairs[2][1]) == 1


def test_introspector_lists_the_entities():
    text = launch.LaunchIntrospector().format_launch_description(launch.LaunchDescription([
        ExecuteProcess(cmd=['echo', 'hi'])]))
    assert text.splitlines()[0].startswith('<launch.launch_description.LaunchDescription')
    assert "ExecuteProcess(cmd=['echo' 'hi']" in text
