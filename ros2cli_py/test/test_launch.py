# SPDX-License-Identifier: Apache-2.0
"""
`ros2 launch` as a user types it: ros2launch's options and output, bad input, the HB50 stack.

The live tests start `ros2 launch hb50_nodes hb50_sim.launch.py` (and its XML and YAML forms,
shipped beside it) on this session's domain,
check with an rclpy subscriber (its own context) that bridge_data and every node's
heartbeat arrive, and stop it with SIGINT: exit 0, no child left.
"""

import os
import re
import signal
import time

from ament_index_python.packages import get_package_prefix
from ament_index_python.packages import get_package_share_directory
import pytest

HB50_FILE = os.path.join(get_package_share_directory('hb50_nodes'), 'launch',
                         'hb50_sim.launch.py')
# The workspace's launch (PyPI toolchain) or a sourced distro's: the checks of what the
# workspace's launch adds to upstream's (one-line errors, exit 0 on SIGTERM) need the former.
OWN_LAUNCH = os.path.realpath(get_package_prefix('launch')).startswith(
    os.path.realpath(os.path.join(get_package_prefix('ros2cli_py'), '..')))
own_launch_only = pytest.mark.skipif(
    not OWN_LAUNCH, reason="checks the workspace's launch, not the sourced distro's")
NODES = ('bridge_node', 'control_node', 'heartbeat_monitor')


def one_line_error(result, code=1):
    """ros2cli's kind of failure: the exit code, one line on stderr, no traceback."""
    assert result.code == code, result
    assert 'Traceback' not in result.out + result.err, result
    assert len(result.err.strip().splitlines()) == 1, result
    return result.err.strip()


def write(tmp_path, name, text):
    path = tmp_path / name
    path.write_text(text)
    return str(path)


ARG_FILE = """
from launch import LaunchDescription
from launch.actions import DeclareLaunchArgument, LogInfo
from launch.substitutions import LaunchConfiguration


def generate_launch_description():
    return LaunchDescription([
        DeclareLaunchArgument('robot', description='the robot'),
        DeclareLaunchArgument('mode', default_value='sim', choices=['sim', 'real']),
        LogInfo(msg=['robot=', LaunchConfiguration('robot'), ' mode=',
                     LaunchConfiguration('mode')]),
    ])
"""


def test_show_args(ros2):
    r = ros2('launch', '-s', 'hb50_nodes', 'hb50_sim.launch.py')
    assert r.code == 0, r
    assert r.out == ("Arguments (pass arguments as '<name>:=<value>'):\n\n"
                     "    'namespace':\n"
                     '        namespace of the nodes and their topics\n'
                     "        (default: '/hb50')\n")


def test_show_args_no_arguments_and_print(ros2, tmp_path):
    path = write(tmp_path, 'empty.launch.py', 'from launch import LaunchDescription\n'
                 'def generate_launch_description():\n    return LaunchDescription([])\n')
    r = ros2('launch', '--show-args', path)
    assert r.code == 0 and r.out.endswith('\n  No arguments.\n'), r
    r = ros2('launch', '-p', 'hb50_nodes', 'hb50_sim.launch.py')
    assert r.code == 0, r
    assert r.out.startswith('<launch.launch_description.LaunchDescription object at ')
    assert r.out.count('hb50_nodes') >= 3


def test_arguments_by_path(ros2, tmp_path):
    path = write(tmp_path, 'args.launch.py', ARG_FILE)
    r = ros2('launch', path, 'robot:=hb50', 'mode:=real')
    assert r.code == 0, r
    assert '[INFO] [launch.user]: robot=hb50 mode=real' in r.out
    r = ros2('launch', path, 'robot:=a', 'robot:=b')      # the last one wins
    assert r.code == 0 and 'robot=b mode=sim' in r.out, r


def test_missing_required_argument_names_it(ros2, tmp_path):
    path = write(tmp_path, 'args.launch.py', ARG_FILE)
    r = ros2('launch', path, 'mode:=sim')
    assert r.code == 1, r
    assert ('[ERROR] [launch]: Caught exception in launch (see debug for traceback): Included '
            "launch description missing required argument 'robot' (description: 'the robot'), "
            'given: [mode]') in r.out
    assert 'Traceback' not in r.out + r.err


def test_invalid_choice(ros2, tmp_path):
    path = write(tmp_path, 'args.launch.py', ARG_FILE)
    r = ros2('launch', path, 'robot:=x', 'mode:=fly')
    assert r.code == 1, r
    assert 'Argument "mode" provided value "fly" is not valid. Valid options are: ' \
        "['sim', 'real']" in r.out


def test_undeclared_argument_is_a_warning(ros2, tmp_path):
    path = write(tmp_path, 'args.launch.py', ARG_FILE)
    r = ros2('launch', path, 'robot:=x', 'colour:=red')
    assert r.code == 0, r
    assert "[WARNING] [launch]: launch argument 'colour' is not declared by 'args.launch.py' " \
        '(its arguments: [robot, mode])' in r.out


@pytest.mark.parametrize('argv,message', [
    (['launch', 'no_such_pkg', 'x.launch.py'], "Package 'no_such_pkg' not found: "),
    (['launch', 'hb50_nodes', 'nope.launch.py'],
     "file 'nope.launch.py' was not found in the share directory of package 'hb50_nodes'"),
    (['launch', '/tmp/no/such/file.launch.py'],
     "ros2 launch: launch file '/tmp/no/such/file.launch.py' does not exist"),
    (['launch', 'hb50_nodes'], "ros2 launch: no launch file given: 'ros2 launch hb50_nodes"),
    (['launch', 'hb50_nodes', 'hb50_sim.launch.py', 'namespace'],
     "malformed launch argument 'namespace', expected format '<name>:=<value>'"),
    (['launch', '--launch-prefix-filter', 'x', 'hb50_nodes', 'hb50_sim.launch.py'],
     '--launch-prefix must be specified if --launch-prefix-filter is provided'),
])
def test_bad_input_is_one_line(ros2, argv, message):
    assert message in one_line_error(ros2(*argv))


def test_syntax_error_names_file_and_line(ros2, tmp_path):
    path = write(tmp_path, 'broken.launch.py', 'from launch import LaunchDescription\n\n'
                 'def generate_launch_description(:\n    pass\n')
    assert one_line_error(ros2('launch', path)) == \
        f'ros2 launch: {path}:3: SyntaxError: invalid syntax'
    path = write(tmp_path, 'raises.launch.py', 'def generate_launch_description():\n'
                 '    return undefined_name\n')
    assert one_line_error(ros2('launch', path)) == \
        f"ros2 launch: {path}:2: NameError: name 'undefined_name' is not defined"
    path = write(tmp_path, 'nogenerate.launch.py', 'x = 1\n')
    assert "does not contain the required function 'generate_launch_description()'" in \
        one_line_error(ros2('launch', path))


@own_launch_only
def test_refused_composition_is_one_line(ros2, tmp_path):
    path = write(tmp_path, 'container.launch.py', (
        'from launch import LaunchDescription\n'
        'from launch_ros.actions import ComposableNodeContainer\n'
        'def generate_launch_description():\n'
        "    return LaunchDescription([ComposableNodeContainer(name='c', namespace='',\n"
        "        package='rclcpp_components', executable='component_container')])\n"))
    err = one_line_error(ros2('launch', path))
    assert 'ComposableNodeContainer is not available' in err and 'Node(' in err


@own_launch_only
def test_executable_not_found_and_bad_parameter_file(ros2, tmp_path):
    bad_yaml = write(tmp_path, 'bad.yaml', 'a: [1, 2\n')
    path = write(tmp_path, 'node.launch.py', (
        'from launch import LaunchDescription\n'
        'from launch_ros.actions import Node\n'
        'def generate_launch_description():\n'
        '    return LaunchDescription([Node(package=PKG, executable=EXE, parameters=PARAMS)])\n'))
    source = open(path).read()
    for pkg, exe, params, message in (
            ('hb50_nodes', 'no_such_node', [],
             "executable 'no_such_node' not found on the libexec directory"),
            ('hb50_nodes', 'heartbeat_monitor', [bad_yaml],
             f"parameter file '{bad_yaml}' is not valid YAML, line 2")):
        with open(path, 'w') as f:
            f.write(f'PKG, EXE, PARAMS = {pkg!r}, {exe!r}, {params!r}\n' + source)
        r = ros2('launch', path)
        assert r.code == 1, r
        errors = [line for line in r.out.splitlines() if '[ERROR]' in line]
        assert len(errors) == 1 and message in errors[0], r
        assert 'Traceback' not in r.out + r.err


class Subscriber:
    """bridge_data count and the reporting nodes of the heartbeats, in its own rclpy context."""

    def __init__(self, domain, namespace):
        import rclpy
        from rclpy.qos import qos_profile_sensor_data
        from hb50_commons.msg import BridgeData, Status
        self.rclpy = rclpy
        self.context = rclpy.Context()
        rclpy.init(context=self.context, domain_id=domain)
        self.node = rclpy.create_node('launch_test_listener', context=self.context)
        self.executor = rclpy.executors.SingleThreadedExecutor(context=self.context)
        self.executor.add_node(self.node)
        self.bridge_data = 0
        self.beats = set()
        self.node.create_subscription(BridgeData, f'{namespace}/bridge_data',
                                      self.on_data, qos_profile_sensor_data)
        self.node.create_subscription(Status, f'{namespace}/heartbeat', self.on_beat, 10)

    def on_data(self, msg):
        self.bridge_data += 1

    def on_beat(self, msg):
        self.beats.add(msg.reporting_node)

    def wait(self, timeout):
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline and not self.done():
            self.executor.spin_once(timeout_sec=0.1)
        return self.done()

    def done(self):
        return self.bridge_data >= 10 and all(
            any(name in beat for beat in self.beats) for name in NODES)

    def close(self):
        self.node.destroy_node()
        self.executor.shutdown()
        self.rclpy.shutdown(context=self.context)


def alive(pid):
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    with open(f'/proc/{pid}/stat') as f:     # a zombie has exited
        return f.read().rsplit(')', 1)[1].split()[0] != 'Z'


@pytest.mark.parametrize('form,namespace', [
    ('py', '/hb50'), ('py', '/robot2'), ('xml', '/robot3'), ('yaml', '/hb50')])
def test_hb50_stack_runs_and_stops_on_sigint(ros2, monkeypatch, form, namespace):
    monkeypatch.setenv('ROS_AUTOMATIC_DISCOVERY_RANGE', 'LOCALHOST')
    argv = ['launch', 'hb50_nodes', f'hb50_sim.launch.{form}'] if form != 'xml' else \
        ['launch', os.path.join(os.path.dirname(HB50_FILE), 'hb50_sim.launch.xml')]
    if namespace != '/hb50':
        argv.append(f'namespace:={namespace}')
    proc = ros2.start(*argv)
    subscriber = Subscriber(ros2.domain, namespace)
    try:
        ok = subscriber.wait(90)
        out, err = ros2.output(proc)
        assert ok, (subscriber.bridge_data, subscriber.beats, out, err)
        pids = [int(p) for p in re.findall(r'process started with pid \[(\d+)\]', out)]
        assert len(pids) == 3, out
        for name in NODES:
            assert re.search(rf'\[INFO\] \[{name}-\d+\]: process started with pid \[\d+\]', out)
        # the nodes themselves are in the namespace (their topics are, see above)
        deadline = time.monotonic() + 20
        while True:
            graph = {f'{ns.rstrip("/")}/{n}'
                     for n, ns in subscriber.node.get_node_names_and_namespaces()}
            if all(f'{namespace}/{n}' in graph for n in NODES) or time.monotonic() > deadline:
                break
            subscriber.executor.spin_once(timeout_sec=0.2)
        assert all(f'{namespace}/{n}' in graph for n in NODES), graph
    finally:
        subscriber.close()
        code = ros2.stop(proc, signal.SIGINT, timeout=30)
    out, err = ros2.output(proc)
    assert code == 0, (out, err)
    assert not [p for p in pids if alive(p)], out
    for name in NODES:
        assert re.search(rf"\[INFO\] \[{name}-\d+\]: sending signal 'SIGINT' to process", out)
        assert re.search(rf'\[INFO\] \[{name}-\d+\]: process has finished cleanly', out), out
    assert 'Traceback' not in out + err


def test_prefix_show_all_output_and_debug(ros2, tmp_path):
    path = write(tmp_path, 'proc.launch.py', (
        'from launch import LaunchDescription\n'
        'from launch.actions import ExecuteProcess\n'
        'def generate_launch_description():\n'
        "    return LaunchDescription([ExecuteProcess(cmd=['echo', 'quiet'], name='p')])\n"))
    r = ros2('launch', path)
    assert r.code == 0 and 'quiet' not in r.out, r        # output='log': not on the screen
    r = ros2('launch', '-a', '--launch-prefix', 'echo PREFIXED', path)
    assert r.code == 0 and re.search(r'\[p-\d+\] PREFIXED echo quiet', r.out), r
    r = ros2('launch', '--launch-prefix', 'echo PREFIXED', '--launch-prefix-filter', 'other',
             '-a', path)
    assert r.code == 0 and re.search(r'\[p-\d+\] quiet', r.out), r
    r = ros2('launch', '-d', path)
    assert r.code == 0 and '[DEBUG] [launch]: processing event' in r.out, r


@pytest.mark.parametrize('sig', [
    signal.SIGINT, pytest.param(signal.SIGTERM, marks=own_launch_only)])
def test_stop_signal_exits_zero_with_no_child_left(ros2, tmp_path, sig):
    path = write(tmp_path, 'sleeper.launch.py', (
        'from launch import LaunchDescription\n'
        'from launch.actions import ExecuteProcess\n'
        'def generate_launch_description():\n'
        "    return LaunchDescription([ExecuteProcess(cmd=['sleep', '60'], output='screen'),\n"
        "                              ExecuteProcess(cmd=['sleep', '61'], output='screen')])\n"))
    proc = ros2.start('launch', path)
    try:
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline and ros2.output(proc)[0].count('process started') < 2:
            time.sleep(0.05)
    finally:
        code = ros2.stop(proc, sig, timeout=20)
    out, err = ros2.output(proc)
    pids = [int(p) for p in re.findall(r'process started with pid \[(\d+)\]', out)]
    assert code == 0 and len(pids) == 2, (out, err)
    assert not [p for p in pids if alive(p)], out
    assert 'Traceback' not in out + err


@own_launch_only
@pytest.mark.parametrize('name,text,message', [
    ('bad.launch.xml', '<launch>\n  <arg name="a"\n</launch>\n', ':3: malformed XML: '),
    ('bad.launch.yaml', 'launch:\n- arg: {name: a\n- log: {message: x}\n',
     ':3: malformed YAML: '),
    ('typo.launch.xml', '<launch>\n  <arg name="a"/>\n  <nod pkg="x" exec="y"/>\n</launch>\n',
     ":3: <nod>: unknown tag 'nod'"),
    ('attr.launch.yaml', 'launch:\n- log:\n    mesage: x\n',
     ":3: <log>: attribute 'message' is required"),
])
def test_malformed_frontend_file_is_one_line(ros2, tmp_path, name, text, message):
    path = write(tmp_path, name, text)
    assert one_line_error(ros2('launch', path)).startswith(f'ros2 launch: {path}{message}')
