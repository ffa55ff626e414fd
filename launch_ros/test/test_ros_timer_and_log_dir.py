# SPDX-License-Identifier: Apache-2.0
"""
ROSTimer and SetROSLogDir.

Upstream's test_launch_ros behaviour (test_ros_timer.py, test_set_ros_log_dir.py),
rewritten.
"""

import io
import os
import textwrap
import threading
import time

from builtin_interfaces.msg import Time
import launch
from launch import LaunchContext
from launch.actions import DeclareLaunchArgument, OpaqueFunction, PopEnvironment
from launch.actions import PushEnvironment, RegisterEventHandler, Shutdown
from launch.event_handlers import OnShutdown
from launch.frontend import Parser
from launch.substitutions import LaunchConfiguration
from launch_ros.actions import ROSTimer, RosTimer, SetROSLogDir, SetUseSimTime
import pytest
import rclpy
from rclpy.clock import Clock, ClockType
from rosgraph_msgs.msg import Clock as ClockMsg
from workspace_testing.pytest_fixtures import domain_id  # noqa: F401 - a fixture


def run(entities):
    service = launch.LaunchService()
    service.include_launch_description(launch.LaunchDescription(entities))
    return service.run()


def shutdown_reasons():
    reasons = []
    handler = RegisterEventHandler(OnShutdown(
        on_shutdown=lambda event, context: reasons.append(event.reason)))
    return reasons, handler


def test_ros_timer_is_exported_under_both_names():
    assert RosTimer is ROSTimer


def test_two_launches_with_timers_in_a_row():
    assert run([ROSTimer(period=0.2, actions=[])]) == 0
    assert run([ROSTimer(period=0.2, actions=[])]) == 0


def test_period_from_a_launch_configuration():
    fired = []
    assert run([DeclareLaunchArgument('my_period', default_value='0.1'),
                ROSTimer(period=LaunchConfiguration('my_period'),
                         actions=[OpaqueFunction(function=lambda c: fired.append(1))])]) == 0
    assert fired == [1]


def test_timer_fires_after_its_period_on_the_system_clock():
    times = {}
    reasons, handler = shutdown_reasons()
    assert run([
        OpaqueFunction(function=lambda c: times.__setitem__('start', time.monotonic())),
        ROSTimer(period=1.0, actions=[
            OpaqueFunction(function=lambda c: times.__setitem__('end', time.monotonic())),
            Shutdown(reason='One second timeout')]),
        handler,
    ]) == 0
    assert reasons == ['One second timeout']
    assert 1.0 <= times['end'] - times['start'] < 2.0


def test_shutdown_cancels_the_later_timer():
    reasons, handler = shutdown_reasons()
    assert run([
        ROSTimer(period=0.5, actions=[Shutdown(reason='fast shutdown')]),
        ROSTimer(period=1.5, actions=[Shutdown(reason='slow shutdown')]),
        handler,
    ]) == 0
    assert reasons == ['fast shutdown']


def test_timer_counts_sim_time_from_clock(domain_id):  # noqa: F811 - the fixture
    """With use_sim_time the period is /clock time: 200 s at 100 s per second take 2 s."""
    context = rclpy.Context()
    rclpy.init(context=context)
    node = rclpy.create_node('test_ros_timer_clock', context=context)
    publisher = node.create_publisher(ClockMsg, '/clock', 10)
    now = Time(sec=0, nanosec=0)

    def tick():
        now.sec += 100
        publisher.publish(ClockMsg(clock=now))

    node.create_timer(1.0, tick, clock=Clock(clock_type=ClockType.SYSTEM_TIME))
    executor = rclpy.executors.SingleThreadedExecutor(context=context)
    executor.add_node(node)
    stop = threading.Event()

    def spin():
        while not stop.is_set():
            executor.spin_once(timeout_sec=0.05)
    thread = threading.Thread(target=spin, daemon=True)
    times = {}
    try:
        thread.start()
        assert run([
            OpaqueFunction(function=lambda c: times.__setitem__('start', time.monotonic())),
            ROSTimer(period=200.0, actions=[OpaqueFunction(
                function=lambda c: times.__setitem__('end', time.monotonic()))]),
            SetUseSimTime(True),    # read when the timer starts waiting, as upstream
        ]) == 0
    finally:
        stop.set()
        thread.join()
        executor.shutdown()
        node.destroy_node()
        context.try_shutdown()
    assert 1.5 < times['end'] - times['start'] < 3.0


def test_ros_timer_frontend_tag():
    xml = textwrap.dedent("""
        <launch>
            <ros_timer period="0.1"><log message="fired"/></ros_timer>
        </launch>
    """)
    with io.StringIO(xml) as f:
        root, parser = Parser.load(f)
        description = parser.parse_description(root)
    [timer] = description.entities
    assert isinstance(timer, ROSTimer) and timer.period == 0.1
    assert len(timer.actions) == 1


def test_set_ros_log_dir_constructor():
    assert SetROSLogDir(new_log_dir='').log_dir


@pytest.fixture
def scoped_environment():
    context = LaunchContext()
    PushEnvironment().visit(context)
    try:
        yield context
    finally:
        PopEnvironment().visit(context)


def test_set_ros_log_dir_relative(tmp_path, scoped_environment):
    os.environ['ROS_LOG_DIR'] = str(tmp_path / 'log')
    SetROSLogDir('relative').visit(scoped_environment)
    assert os.environ['ROS_LOG_DIR'] == str(tmp_path / 'log' / 'relative')


def test_set_ros_log_dir_absolute(tmp_path, scoped_environment):
    os.environ['ROS_LOG_DIR'] = str(tmp_path / 'log')
    SetROSLogDir(str(tmp_path / 'elsewhere')).visit(scoped_environment)
    assert os.environ['ROS_LOG_DIR'] == str(tmp_path / 'elsewhere')


def test_set_ros_log_dir_relative_to_the_default(tmp_path, scoped_environment):
    os.environ.pop('ROS_LOG_DIR', None)
    os.environ['ROS_HOME'] = str(tmp_path / 'home')
    SetROSLogDir('sub').visit(scoped_environment)
    assert os.environ['ROS_LOG_DIR'] == str(tmp_path / 'home' / 'log' / 'sub')


def test_set_ros_log_dir_frontend():
    xml = '<launch><set_ros_log_dir new_log_dir="relative"/></launch>'
    with io.StringIO(xml) as f:
        root, parser = Parser.load(f)
        description = parser.parse_description(root)
    [action] = description.entities
    assert isinstance(action, SetROSLogDir)
    assert action.log_dir[0].describe() == "'relative'"
