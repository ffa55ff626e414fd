# SPDX-License-Identifier: Apache-2.0
"""
LifecycleNode, LifecycleTransition, OnStateTransition and the lifecycle events.

Upstream's test_lifecycle_node.py and test_lifecycle_transition.py behaviour (rewritten),
and upstream's lifecycle_pub_sub_launch.py example run against a real rclpy lifecycle node
(test/lifecycle_talker.py, installed by conftest's fake package): its state is read back
with lifecycle_msgs/srv/GetState, as ``ros2 lifecycle get`` does.
"""

import logging
import os
import signal
import subprocess
import sys
import threading
import time

import launch
from launch import LaunchContext
from launch.actions import EmitEvent, LogInfo, RegisterEventHandler
from launch.event_handlers import OnProcessExit
from launch.events import matches_action
from launch_ros.actions import LifecycleNode, LifecycleTransition
from launch_ros.event_handlers import OnStateTransition
from launch_ros.events.lifecycle import ChangeState, matches_node_name, StateTransition
from lifecycle_msgs.msg import Transition
from lifecycle_msgs.srv import GetState
import pytest
import rclpy
from rclpy.executors import SingleThreadedExecutor
from workspace_testing.pytest_fixtures import domain_id  # noqa: F401 - a fixture

PKG = 'launch_ros_test_pkg'
TIMEOUT = 30.0


# upstream's test_lifecycle_node.py

def test_lifecycle_node_constructor():
    with pytest.raises(TypeError):
        LifecycleNode(package='asd', executable='bsd', name='my_node')
    with pytest.raises(TypeError):
        LifecycleNode(package='asd', executable='bsd', namespace='my_ns')
    LifecycleNode(package='asd', executable='bsd', name='my_node', namespace='my_ns')


def test_node_name():
    node = LifecycleNode(package='asd', executable='bsd', name='my_node', namespace='my_ns')
    node._perform_substitutions(LaunchContext())
    assert node.is_node_name_fully_specified() is True
    assert node.node_name == '/my_ns/my_node'


# upstream's test_lifecycle_transition.py

def test_lifecycle_transition_constructor():
    for ids in ([Transition.TRANSITION_ACTIVATE], [1], ['1']):
        LifecycleTransition(lifecycle_node_names=['talker'], transition_ids=ids)
    with pytest.raises(ValueError):
        LifecycleTransition(lifecycle_node_names=['talker'], transition_ids=[])
    with pytest.raises(ValueError):
        LifecycleTransition(lifecycle_node_names=[],
                            transition_ids=[Transition.TRANSITION_ACTIVATE])


def test_lifecycle_transition_execute():
    actions = LifecycleTransition(lifecycle_node_names=['talker'],
                                  transition_ids=['1']).execute(LaunchContext())
    assert isinstance(actions[0], RegisterEventHandler)
    assert isinstance(actions[1], EmitEvent)
    assert isinstance(actions[1].event, ChangeState)
    assert actions[1].event.transition_id == Transition.TRANSITION_CONFIGURE


def test_change_state_event():
    with pytest.raises(ValueError, match="given transition_id of '99'"):
        ChangeState(lifecycle_node_matcher=lambda action: True, transition_id=99)
    event = ChangeState(lifecycle_node_matcher=matches_node_name('/a'),
                        transition_id=Transition.TRANSITION_CLEANUP)
    assert event.transition_id == 2
    assert ChangeState.valid_transitions[Transition.TRANSITION_ACTIVATE] == \
        'TRANSITION_ACTIVATE'


def test_matches_node_name():
    node = LifecycleNode(package='asd', executable='bsd', name='n', namespace='')
    assert not matches_node_name('/n')(node)        # not executed yet: no name
    node._perform_substitutions(LaunchContext())
    assert node.node_name == '/n'
    assert matches_node_name('/n')(node) and matches_node_name('n')(node)
    assert not matches_node_name('/m')(node) and not matches_node_name('/n')(object())


def test_on_state_transition_target_must_be_a_lifecycle_node():
    with pytest.raises(RuntimeError, match="requires a 'LifecycleNode'"):
        OnStateTransition(target_lifecycle_node=object(), entities=[])


# against an rclpy lifecycle node

class StateWatcher:
    """Polls ``<node>/get_state`` (GetState) until ``wanted``, then shuts the launch down."""

    def __init__(self, service, node_name, wanted):
        self.service, self.node_name, self.wanted = service, node_name, wanted
        self.states = []
        self.thread = threading.Thread(target=self.run, daemon=True)
        self.thread.start()

    def run(self):
        context = rclpy.Context()
        rclpy.init(args=[], context=context)
        node = rclpy.create_node('lifecycle_test_watcher', context=context)
        executor = SingleThreadedExecutor(context=context)
        executor.add_node(node)
        client = node.create_client(GetState, f'{self.node_name}/get_state')
        deadline = time.monotonic() + TIMEOUT
        try:
            while time.monotonic() < deadline:
                if client.wait_for_service(timeout_sec=0.1):
                    future = client.call_async(GetState.Request())
                    executor.spin_until_future_complete(future, timeout_sec=2.0)
                    if future.done() and future.result() is not None:
                        label = future.result().current_state.label
                        if not self.states or self.states[-1] != label:
                            self.states.append(label)
                        if label == self.wanted:
                            break
                time.sleep(0.1)
        finally:
            executor.shutdown()
            node.destroy_node()
            context.try_shutdown()
            self.service.shutdown()

    def join(self):
        self.thread.join(TIMEOUT)


def run_until_state(entities, node_name, wanted):
    """Run a launch until ``node_name`` is in state ``wanted`` (or the timeout): codes, states."""
    codes = []
    service = launch.LaunchService()
    service.include_launch_description(launch.LaunchDescription(list(entities) + [
        RegisterEventHandler(OnProcessExit(
            on_exit=lambda event, context: codes.append(event.returncode)))]))
    watcher = StateWatcher(service, node_name, wanted)
    rc = service.run()
    watcher.join()
    return rc, codes, watcher.states


def assert_clean(out):
    assert 'Traceback' not in out and 'Callback failed' not in out, out


def test_configure_then_activate_as_upstream_example(fake_package, domain_id, capfd):  # noqa: F811
    talker = LifecycleNode(name='talker', namespace='', package=PKG,
                           executable='lifecycle_talker', output='screen')
    transitions = []
    entities = [
        RegisterEventHandler(OnStateTransition(
            target_lifecycle_node=talker, start_state='configuring', goal_state='inactive',
            entities=[
                LogInfo(msg="node 'talker' reached the 'inactive' state, 'activating'."),
                EmitEvent(event=ChangeState(
                    lifecycle_node_matcher=matches_action(talker),
                    transition_id=Transition.TRANSITION_ACTIVATE)),
            ])),
        RegisterEventHandler(OnStateTransition(
            target_lifecycle_node=talker, goal_state='active',
            entities=[LogInfo(msg="node 'talker' reached the 'active' state.")])),
        RegisterEventHandler(OnStateTransition(
            entities=[], matcher=lambda event: isinstance(event, StateTransition) and bool(
                transitions.append((event.start_state, event.goal_state))))),
        talker,
        EmitEvent(event=ChangeState(lifecycle_node_matcher=matches_action(talker),
                                    transition_id=Transition.TRANSITION_CONFIGURE)),
    ]
    rc, codes, states = run_until_state(entities, '/talker', 'active')
    out, err = capfd.readouterr()
    assert rc == 0 and codes == [0], out + err
    assert states[-1] == 'active', (states, out + err)
    assert transitions[:4] == [('unconfigured', 'configuring'), ('configuring', 'inactive'),
                               ('inactive', 'activating'), ('activating', 'active')]
    for line in ('on_configure() called', "reached the 'inactive' state, 'activating'",
                 'on_activate() called', "node 'talker' reached the 'active' state."):
        assert line in out + err, out + err
    assert_clean(out + err)


@pytest.mark.parametrize('name', ['/robot/talker', 'robot/talker'])
def test_lifecycle_transition_by_node_name(fake_package, domain_id, capfd, name):  # noqa: F811
    entities = [
        LifecycleNode(name='talker', namespace='robot', package=PKG,
                      executable='lifecycle_talker', output='screen'),
        LifecycleTransition(lifecycle_node_names=[name],
                            transition_ids=[Transition.TRANSITION_CONFIGURE, 'activate']),
    ]
    rc, codes, states = run_until_state(entities, '/robot/talker', 'active')
    out, err = capfd.readouterr()
    assert rc == 0 and codes == [0], out + err
    assert states[-1] == 'active', (states, out + err)
    assert 'on_configure() called' in out + err and 'on_activate() called' in out + err
    assert_clean(out + err)


def test_autostart(fake_package, domain_id, capfd):  # noqa: F811
    entities = [LifecycleNode(name='auto', namespace='', package=PKG, autostart=True,
                              executable='lifecycle_talker', output='screen')]
    rc, codes, states = run_until_state(entities, '/auto', 'active')
    out, err = capfd.readouterr()
    assert rc == 0 and codes == [0], out + err
    assert states[-1] == 'active', (states, out + err)
    assert_clean(out + err)


class _ShutdownOnLogs(logging.Handler):
    """Shuts the launch down once every one of ``texts`` was logged."""

    def __init__(self, service, texts):
        super().__init__()
        self.service, self.texts = service, set(texts)

    def emit(self, record):
        message = record.getMessage()
        self.texts = {text for text in self.texts if text not in message}
        if not self.texts:
            self.service.shutdown()


# Jazzy's rclpy lifecycle node raises (RCLError, a traceback, exit 1) when asked for a
# transition its state machine does not have from the current state; Kilted's answers
# success=false
JAZZY_RCLPY = os.environ.get('ROS_DISTRO') == 'jazzy'


@pytest.mark.parametrize('refused', [
    False,
    pytest.param(True, marks=pytest.mark.skipif(
        JAZZY_RCLPY, reason="Jazzy's rclpy lifecycle node crashes on a refused transition")),
])
def test_bad_transitions_are_logged_errors(fake_package, domain_id, capfd,  # noqa: F811
                                           refused):
    """
    An unknown transition id, a failed transition and a refused one: each one error line.

    The node fails its configure callback: LifecycleTransition does not request the
    activation after it. With ``refused``, the activation is then asked for by hand and
    the node refuses it.
    """
    talker = LifecycleNode(name='failing', namespace='', package=PKG,
                           executable='lifecycle_talker', arguments=['--fail-configure'],
                           output='screen')
    entities = [
        talker,
        LifecycleTransition(lifecycle_node_names=['/failing'], transition_ids=['99']),
        LifecycleTransition(lifecycle_node_names=['/failing'], transition_ids=[1, 3]),
    ]
    expected = [
        "'/failing' ended transition 'TRANSITION_CONFIGURE' in state 'unconfigured', "
        "not 'inactive'; not requesting TRANSITION_ACTIVATE",
        "Failed to make transition 'TRANSITION_CONFIGURE' for LifecycleNode '/failing': its "
        'change_state service answered success=false',
    ]
    if refused:
        entities.append(RegisterEventHandler(OnStateTransition(
            target_lifecycle_node=talker, start_state='configuring', goal_state='unconfigured',
            entities=[EmitEvent(event=ChangeState(
                lifecycle_node_matcher=matches_action(talker),
                transition_id=Transition.TRANSITION_ACTIVATE))])))
        expected.append("Failed to make transition 'TRANSITION_ACTIVATE' for LifecycleNode "
                        "'/failing': its change_state service answered success=false")
    codes = []
    service = launch.LaunchService()
    service.include_launch_description(launch.LaunchDescription(entities + [
        RegisterEventHandler(OnProcessExit(
            on_exit=lambda event, context: codes.append(event.returncode)))]))
    handler = _ShutdownOnLogs(service, expected)
    loggers = [logging.getLogger(f'launch_ros.actions.{name}')
               for name in ('lifecycle_node', 'lifecycle_transition')]
    for logger in loggers:
        logger.addHandler(handler)
    timer = threading.Timer(TIMEOUT, service.shutdown)
    timer.start()
    try:
        rc = service.run()
    finally:
        timer.cancel()
        for logger in loggers:
            logger.removeHandler(handler)
    out, err = capfd.readouterr()
    assert rc == 0 and codes == [0], out + err
    errors = [line for line in (out + err).splitlines()
              if line.startswith('[ERROR] [launch')]     # launch's; not the node's own
    assert len(errors) == 1 + len(expected), out + err
    assert 'unknown lifecycle transition id 99' in errors[0]
    for text in expected:
        assert text in out + err
    assert 'on_activate() called' not in out + err
    assert_clean(out + err)


def test_frontend_tags(fake_package, tmp_path):
    xml = tmp_path / 'l.launch.xml'
    xml.write_text(f'<launch><lifecycle_node pkg="{PKG}" exec="lifecycle_talker" name="a" '
                   'namespace="n" autostart="true"/></launch>')
    yaml_file = tmp_path / 'l.launch.yaml'
    yaml_file.write_text(f'launch:\n- lifecycle_node: {{pkg: {PKG}, exec: lifecycle_talker, '
                         'name: a, namespace: n, autostart: true}\n')
    from launch.launch_description_sources import AnyLaunchDescriptionSource
    for path in (xml, yaml_file):
        description = AnyLaunchDescriptionSource(str(path)).get_launch_description(
            LaunchContext())
        [node] = description.entities
        assert isinstance(node, LifecycleNode)
        autostart = node.autostart
        if not isinstance(autostart, bool):
            autostart = ''.join(s.perform(LaunchContext()) for s in autostart)
        assert str(autostart).lower() == 'true'


LAUNCH_XML = f"""<launch>
  <lifecycle_node pkg="{PKG}" exec="lifecycle_talker" name="xml_talker" namespace=""
                  autostart="true" output="screen"/>
</launch>
"""


def test_sigint_exits_0(fake_package, domain_id, tmp_path):  # noqa: F811
    """A launch of a ``<lifecycle_node autostart>``: active, then Ctrl-C, all exit 0."""
    path = tmp_path / 'talker.launch.xml'
    path.write_text(LAUNCH_XML)
    script = ('import sys, launch\n'
              'from launch.actions import IncludeLaunchDescription\n'
              's = launch.LaunchService(argv=sys.argv[1:])\n'
              f's.include_launch_description(launch.LaunchDescription('
              f'[IncludeLaunchDescription({str(path)!r})]))\n'
              'sys.exit(s.run())\n')
    # a session of its own: Ctrl-C in a terminal is SIGINT to the whole process group
    proc = subprocess.Popen([sys.executable, '-c', script], stdout=subprocess.PIPE,
                            stderr=subprocess.STDOUT, text=True, env=dict(os.environ),
                            start_new_session=True)
    lines = []
    try:
        deadline = time.monotonic() + TIMEOUT
        while time.monotonic() < deadline:
            line = proc.stdout.readline()
            if not line:
                break
            lines.append(line)
            if 'on_activate() called' in line:
                break
        assert any('on_activate() called' in line for line in lines), ''.join(lines)
        time.sleep(0.5)
        os.killpg(proc.pid, signal.SIGINT)
        rest, _ = proc.communicate(timeout=TIMEOUT)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.communicate()
    out = ''.join(lines) + rest
    assert proc.returncode == 0, out
    assert 'process has finished cleanly' in out, out
    assert 'escalating' not in out, out
    assert_clean(out)
