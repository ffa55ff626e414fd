# SPDX-License-Identifier: Apache-2.0
"""
ros2/launch_ros's examples, unchanged (upstream_examples/), on this workspace's packages.

- launch_testing_ros' example launch tests (talker/listener with DataRepublisher,
  wait_for_topic, set_param, check_node, check_msgs): each through ``launch_test`` and all of
  them in one pytest run (``rostest`` files collected by LaunchROSTestModule); their helper
  nodes use ``with rclpy.init()``, which Jazzy's rclpy lacks: there, stand-ins replace them;
- ros2launch's examples (``example.launch.py``, ``includes_example.launch.py``): their
  ``demo_nodes_cpp`` talker and listener are rclpy stand-ins installed in a temporary
  prefix; the file runs as ``ros2 launch <file>`` runs it, and Ctrl-C (SIGINT to the
  process group) stops it with exit 0.

The conftest puts this process and its children on a ROS domain of their own.
"""

import os
import re
import shutil
import signal
import stat
import subprocess
import sys

import pytest
import workspace_testing as wt

HERE = os.path.dirname(os.path.abspath(__file__))
UPSTREAM = os.path.join(HERE, 'upstream_examples')
# file -> test methods it runs
EXAMPLES = {
    'check_msgs_launch_test.py': 1,
    'check_node_launch_test.py': 1,
    'set_param_launch_test.py': 1,
    'talker_listener_launch_test.py': 3,
    'wait_for_topic_launch_test.py': 2,
}
HELPERS = ('listener.py', 'parameter_blackboard.py', 'talker.py')


def clean_env():
    env = dict(os.environ)
    env.pop('PYTEST_ADDOPTS', None)     # colcon's options are not for the inner run
    return env


def ran_and_failed(stdout):
    """Sum the 'ran N, F failed, E errors' lines of launch_test."""
    ran = failed = 0
    for line in stdout.splitlines():
        if ' tests: ran ' in line:
            counts = line.split(' tests: ran ', 1)[1].replace(',', '').split()
            ran += int(counts[0])
            failed += int(counts[1]) + int(counts[3])
    return ran, failed


# The helper nodes of the examples use `with rclpy.init():` (rclpy since Kilted). With an
# older rclpy (Jazzy) they are replaced by these stand-ins with the same topics, parameters
# and log lines; the launch tests themselves stay upstream's.
OLD_RCLPY_STAND_INS = {
    'talker.py': """
import rclpy
from rclpy.executors import ExternalShutdownException
from std_msgs.msg import String
try:
    rclpy.init()
    node = rclpy.create_node('talker')
    hz = node.declare_parameter('hz', 1.0).value
    pub = node.create_publisher(String, 'chatter', 10)
    count = [0]
    def tick():
        data = 'Hello World: {0}'.format(count[0])
        node.get_logger().info('Publishing: "{0}"'.format(data))
        pub.publish(String(data=data))
        count[0] += 1
    node.create_timer(1.0 / hz, tick)
    rclpy.spin(node)
except (KeyboardInterrupt, ExternalShutdownException):
    pass
""",
    'listener.py': """
import rclpy
from rclpy.executors import ExternalShutdownException
from std_msgs.msg import String
try:
    rclpy.init()
    node = rclpy.create_node('listener')
    node.create_subscription(
        String, 'chatter', lambda m: node.get_logger().info('I heard: [%s]' % m.data), 10)
    rclpy.spin(node)
except (KeyboardInterrupt, ExternalShutdownException):
    pass
""",
    'parameter_blackboard.py': """
import rclpy
from rclpy.executors import ExternalShutdownException
try:
    rclpy.init()
    node = rclpy.create_node('parameter_blackboard')
    node.declare_parameter('demo_parameter_1', False)
    rclpy.spin(node)
except (KeyboardInterrupt, ExternalShutdownException):
    pass
""",
}


def rclpy_init_is_a_context_manager():
    import rclpy
    return hasattr(rclpy, 'InitContextManager')


@pytest.fixture(scope='module')
def examples(tmp_path_factory):
    """Upstream's examples in a folder of their own (helpers replaced for an old rclpy)."""
    folder = tmp_path_factory.mktemp('upstream_examples')
    for name in [*EXAMPLES, *HELPERS]:
        shutil.copy(os.path.join(UPSTREAM, name), folder / name)
    if not rclpy_init_is_a_context_manager():
        for name, text in OLD_RCLPY_STAND_INS.items():
            (folder / name).write_text(text)
    return folder


@pytest.mark.parametrize('name', sorted(EXAMPLES))
def test_example_through_launch_test(name, examples):
    command = shutil.which('launch_test')
    assert command, 'launch_test is not on PATH (source the install)'
    result = subprocess.run([command, str(examples / name)], capture_output=True,
                            text=True, timeout=180, stdin=subprocess.DEVNULL, env=clean_env())
    assert result.returncode == 0, result.stdout + result.stderr
    assert ran_and_failed(result.stdout) == (EXAMPLES[name], 0), result.stdout
    assert 'Traceback' not in result.stdout + result.stderr


def test_all_examples_through_pytest(examples):
    result = subprocess.run(
        [sys.executable, '-m', 'pytest', '-p', 'no:cacheprovider', '-rA',
         *[str(examples / n) for n in sorted(EXAMPLES)]],
        capture_output=True, text=True, timeout=400, stdin=subprocess.DEVNULL,
        env=clean_env(), cwd=str(examples))
    assert result.returncode == 0, result.stdout + result.stderr
    passed = [line for line in result.stdout.splitlines() if line.startswith('PASSED ')]
    assert len(passed) == len(EXAMPLES), result.stdout
    assert 'Traceback' not in result.stdout


def test_rostest_files_are_collected_by_launch_ros_test_module(tmp_path):
    """The talker/listener example is marked rostest: launch_testing_ros' collector runs it."""
    from launch_testing_ros.pytest.hooks import LaunchROSTestModule
    import launch_testing_ros
    assert launch_testing_ros.LaunchROSTestModule is LaunchROSTestModule
    probe = tmp_path / 'conftest.py'
    probe.write_text(
        'def pytest_collection_modifyitems(items):\n'
        '    for item in items:\n'
        "        print('COLLECTED', type(item.parent).__name__, type(item).__name__)\n")
    for name in ('talker_listener_launch_test.py', 'set_param_launch_test.py'):
        shutil.copy(os.path.join(UPSTREAM, name), tmp_path / name)
    result = subprocess.run(
        [sys.executable, '-m', 'pytest', '-p', 'no:cacheprovider', '--collect-only', '-s',
         str(tmp_path)],
        capture_output=True, text=True, timeout=120, stdin=subprocess.DEVNULL,
        env=clean_env(), cwd=str(tmp_path))
    assert result.returncode == 0, result.stdout + result.stderr
    collected = sorted(line for line in result.stdout.splitlines()
                       if line.startswith('COLLECTED'))
    assert collected == ['COLLECTED LaunchROSTestModule LaunchROSTestItem',
                         'COLLECTED LaunchTestModule LaunchTestItem'], result.stdout


STAND_IN = {
    'talker': f"""#!{sys.executable}
# demo_nodes_cpp's talker, a stand-in: 'Hello World: N' on chatter every 0.2 s
import rclpy
from rclpy.executors import ExternalShutdownException
from std_msgs.msg import String
try:
    rclpy.init()
    node = rclpy.create_node('talker')
    pub = node.create_publisher(String, 'chatter', 10)
    count = [0]
    def tick():
        count[0] += 1
        msg = String(data=f'Hello World: {{count[0]}}')
        node.get_logger().info(f"Publishing: '{{msg.data}}'")
        pub.publish(msg)
    node.create_timer(0.2, tick)
    rclpy.spin(node)
except (KeyboardInterrupt, ExternalShutdownException):
    pass
""",
    'listener': f"""#!{sys.executable}
# demo_nodes_cpp's listener, a stand-in
import rclpy
from rclpy.executors import ExternalShutdownException
from std_msgs.msg import String
try:
    rclpy.init()
    node = rclpy.create_node('listener')
    node.create_subscription(
        String, 'chatter', lambda m: node.get_logger().info(f'I heard: [{{m.data}}]'), 10)
    rclpy.spin(node)
except (KeyboardInterrupt, ExternalShutdownException):
    pass
""",
}

# what `ros2 launch <file> [args]` does with a launch file (ros2launch's launch_a_launch_file)
RUN_LAUNCH_FILE = """
import signal
import sys
import launch
# a test run in the background inherits SIGINT ignored; children get it back as a terminal's
signal.signal(signal.SIGINT, signal.default_int_handler)
from launch.launch_description_sources import AnyLaunchDescriptionSource
service = launch.LaunchService(argv=sys.argv[2:])
service.include_launch_description(launch.LaunchDescription([
    launch.actions.IncludeLaunchDescription(
        AnyLaunchDescriptionSource(sys.argv[1]),
        launch_arguments=[a.split(':=', 1) for a in sys.argv[2:] if ':=' in a]),
]))
sys.exit(service.run())
"""


@pytest.fixture
def demo_nodes_cpp(tmp_path, monkeypatch):
    """Install a stand-in of demo_nodes_cpp: talker and listener, in a temporary prefix."""
    prefix = tmp_path / 'prefix'
    index = prefix / 'share' / 'ament_index' / 'resource_index' / 'packages'
    index.mkdir(parents=True)
    (index / 'demo_nodes_cpp').write_text('')
    lib = prefix / 'lib' / 'demo_nodes_cpp'
    lib.mkdir(parents=True)
    for name, text in STAND_IN.items():
        (lib / name).write_text(text)
        (lib / name).chmod((lib / name).stat().st_mode | stat.S_IXUSR)
    monkeypatch.setenv('AMENT_PREFIX_PATH', os.pathsep.join(
        [str(prefix), os.environ.get('AMENT_PREFIX_PATH', '')]))
    monkeypatch.setenv('USER', 'tester')
    return prefix


@pytest.mark.parametrize('name, prefix', [('example.launch.py', 'tester_'),
                                          ('includes_example.launch.py', 'FOO')])
def test_ros2launch_example(name, prefix, demo_nodes_cpp):
    path = os.path.join(UPSTREAM, 'ros2launch', name)
    with wt.start([sys.executable, '-c', RUN_LAUNCH_FILE, path]) as proc:
        heard = proc.wait_for_output('I heard: [Hello World: ', timeout=30)
        assert heard, proc.output()
        os.killpg(proc.pid, signal.SIGINT)     # Ctrl-C in a terminal: the whole group
        assert proc.wait(timeout=15) == 0, proc.output()
        stopped = proc.stop()
    out = stopped.output
    assert re.search(r'\[talker-1\] \[INFO\] \[[0-9.]+\] \[' + prefix
                     + r"talker\]: Publishing: 'Hello World: \d+'", out), out
    assert re.search(r'\[listener-2\] \[INFO\] \[[0-9.]+\] \[' + prefix
                     + r'listener\]: I heard: \[Hello World: \d+\]', out), out
    assert 'escalating' not in out, out
    if name == 'includes_example.launch.py':
        assert 'Including launch file located at: ' + os.path.join(
            UPSTREAM, 'ros2launch', 'example.launch.py') in out, out
    assert 'Traceback' not in out
