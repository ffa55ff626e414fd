# SPDX-License-Identifier: Apache-2.0
"""ros2/launch's test_timer_action.py cases, with shorter periods and a sleeping process."""

import sys

import launch
from launch.actions import ExecuteProcess
from launch.actions import RegisterEventHandler
from launch.actions import Shutdown
from launch.actions import TimerAction
from launch.event_handlers import OnShutdown

SLEEPER = [sys.executable, '-c', 'import time; time.sleep(30)']


def listener(reasons):
    return RegisterEventHandler(OnShutdown(
        on_shutdown=lambda event, context: reasons.append(event.reason)))


def run(entities):
    service = launch.LaunchService()
    service.include_launch_description(launch.LaunchDescription(entities))
    return service.run()


def test_multiple_launches_with_timers():
    for _ in range(2):      # the second run used to hang upstream (ros2/launch#183)
        assert run([ExecuteProcess(cmd=SLEEPER),
                    TimerAction(period=0.3, actions=[Shutdown(reason='Timer expired')])]) == 0


def test_timer_shutdown_reason():
    reasons = []
    assert run([ExecuteProcess(cmd=SLEEPER),
                TimerAction(period=0.3, actions=[Shutdown(reason='timeout')]),
                listener(reasons)]) == 0
    assert reasons == ['timeout']


def test_shutdown_preempts_timers():
    reasons = []
    assert run([ExecuteProcess(cmd=SLEEPER),
                TimerAction(period=0.3, actions=[Shutdown(reason='fast shutdown')]),
                TimerAction(period=0.6, actions=[Shutdown(reason='slow shutdown')]),
                listener(reasons)]) == 0
    assert reasons == ['fast shutdown']


def test_timer_can_block_preemption():
    reasons = []
    assert run([ExecuteProcess(cmd=SLEEPER),
                TimerAction(period=0.3, actions=[Shutdown(reason='fast shutdown')]),
                TimerAction(period=0.6, actions=[Shutdown(reason='slow shutdown')],
                            cancel_on_shutdown=False),
                listener(reasons)]) == 0
    assert reasons == ['fast shutdown', 'slow shutdown']
