# SPDX-License-Identifier: Apache-2.0
"""
Every launch file of the workspace names only installed things, and stops on Ctrl-C.

Every launch file of the workspace, checked statically: it is installed, and every package,
executable and shared file it names exists in the install space, so `ros2 launch` finds
them all, on a user's ROS 2 as with the workspace's own launch (whose tests run them, each
in its package's test/*_launch_test.py).

Every shipped launch file (.py, .xml, .yaml) run as a user runs it, `ros2 launch <package>
<file>`, on the test's domain: all its processes start, and SIGINT to `ros2 launch` (Ctrl-C)
ends it with exit code 0, every process finished cleanly and none left.
"""

import ast
import json
import os
import pathlib
import re
import shutil
import signal
import time
import xml.etree.ElementTree as ET

from ament_index_python import get_resources
from ament_index_python.packages import get_package_prefix, get_package_share_directory
from horus_msg_py import shm
import pytest
import workspace_testing as wt
from workspace_testing.adam_sim import cyclone_localhost_uri

WORKSPACE = pathlib.Path(__file__).resolve().parents[2]


def source_launch_files():
    """(package name, source path) of every launch file in the workspace's packages."""
    found = []
    for package_xml in sorted(WORKSPACE.glob('*/package.xml')):
        launch_dir = package_xml.parent / 'launch'
        if launch_dir.is_dir():
            name = package_name(package_xml)
            found += [(name, path) for path in sorted(launch_dir.glob('*.launch.py'))]
    return found


def package_name(package_xml):
    return ET.parse(package_xml).getroot().findtext('name')


LAUNCH_FILES = source_launch_files()


def literal(node, what, path):
    assert isinstance(node, ast.Constant) and isinstance(node.value, str), (
        f'{path}: {what} must be a string literal so that it can be checked')
    return node.value


def named_things(path):
    """
    Return what a launch file names.

    Nodes (package, executable), packages whose share dir is looked up, and the share
    files joined onto it (os.path.join(get_package_share_directory(p), 'config', 'x.yaml')).
    """
    tree = ast.parse(path.read_text(encoding='utf-8'))
    nodes, packages, share_files = [], set(), []
    for call in (n for n in ast.walk(tree) if isinstance(n, ast.Call)):
        if isinstance(call.func, ast.Attribute):
            func = call.func.attr
        else:
            func = getattr(call.func, 'id', '')
        keywords = {k.arg: k.value for k in call.keywords}
        if func == 'Node':
            nodes.append((literal(keywords['package'], 'package', path),
                          literal(keywords['executable'], 'executable', path)))
        elif func == 'get_package_share_directory':
            packages.add(literal(call.args[0], 'package', path))
        elif func == 'join' and call.args and isinstance(call.args[0], ast.Call) and getattr(
                call.args[0].func, 'id', '') == 'get_package_share_directory':
            package = literal(call.args[0].args[0], 'package', path)
            parts = [literal(a, 'path part', path) for a in call.args[1:]]
            share_files.append((package, os.path.join(*parts)))
    return nodes, packages, share_files


def test_the_workspace_has_launch_files():
    assert LAUNCH_FILES, 'no launch files found: the test would check nothing'


@pytest.mark.parametrize('package,path', LAUNCH_FILES, ids=[p.name for _, p in LAUNCH_FILES])
def test_launch_file_is_installed_and_names_only_installed_things(package, path):
    installed = pathlib.Path(get_package_share_directory(package)) / 'launch' / path.name
    assert installed.is_file(), f'{path.name} is not installed to share/{package}/launch'
    nodes, packages, share_files = named_things(installed)
    assert nodes, f'{path.name} launches no node'
    known = set(get_resources('packages'))
    for pkg, exe in nodes:
        assert pkg in known, f'{path.name}: package {pkg} is not installed'
        exe_path = pathlib.Path(get_package_prefix(pkg)) / 'lib' / pkg / exe
        assert exe_path.is_file() and os.access(exe_path, os.X_OK), (
            f'{path.name}: {exe_path} is missing or not executable (ros2 run {pkg} {exe})')
    for pkg in packages:
        assert pkg in known, f'{path.name}: package {pkg} is not installed'
    for pkg, relative in share_files:
        shared = pathlib.Path(get_package_share_directory(pkg)) / relative
        assert shared.exists(), f'{path.name}: {shared} is not installed'


# ---------------------------------------------------------------- ros2 launch, then Ctrl-C

def _aimrt_configs(folder, http_port):
    """Write the simulator's and the bridge's configuration on free ports (JSON is YAML)."""
    sim_port = wt.free_port()
    sim, bridge = folder / 'sim.yaml', folder / 'bridge.yaml'
    sim.write_text(json.dumps({'listen_port': sim_port,
                               'state_addresses': [f'127.0.0.1:{http_port}']}))
    bridge.write_text(json.dumps({'aimrt_bridge': {'ros__parameters': {
        'command_addresses': [f'127.0.0.1:{sim_port}']}}}))
    return [f'sim_config:={sim}', f'bridge_params:={bridge}', f'http_port:={http_port}']


# (package, file) -> (processes it starts, its arguments for a test run: a function of the
# domain and a temporary folder; ports are free ones, the simulators on the test's domain)
SHIPPED = {
    ('hb50_nodes', 'hb50_sim.launch.py'): (3, lambda d, tmp: []),
    ('hb50_nodes', 'hb50_sim.launch.xml'): (3, lambda d, tmp: ['namespace:=/robot2']),
    ('hb50_nodes', 'hb50_sim.launch.yaml'): (3, lambda d, tmp: []),
    ('hb50_nodes', 'hb50_foxglove.launch.py'): (5, lambda d, tmp: [f'port:={wt.free_port()}']),
    ('robstride_sim', 'robstride_sim.launch.py'): (1, lambda d, tmp: []),
    ('robstride_sim', 'robstride_foxglove.launch.py'): (
        2, lambda d, tmp: [f'port:={wt.free_port()}']),
    ('pnd_adam_sim', 'adam_sim.launch.py'): (1, lambda d, tmp: [f'domain_id:={d}']),
    ('pnd_adam_examples', 'arm_pose.launch.py'): (1, lambda d, tmp: []),
    ('pnd_adam_examples', 'adam_foxglove.launch.py'): (
        3, lambda d, tmp: [f'domain_id:={d}', f'port:={wt.free_port()}']),
    ('aimrt_bridge', 'aimrt_bridge.launch.py'): (
        1, lambda d, tmp: [f'http_port:={wt.free_port()}']),
    ('aimrt_mujoco_sim', 'aimrt_foxglove.launch.py'): (
        3, lambda d, tmp: _aimrt_configs(tmp, wt.free_port()) + [f'port:={wt.free_port()}']),
    ('horus_bridge', 'horus_bridge.launch.py'): (1, lambda d, tmp: []),
    ('horus_bridge', 'horus_foxglove.launch.py'): (
        2, lambda d, tmp: [f'port:={wt.free_port()}']),
}


def test_every_shipped_launch_file_is_run_below():
    shipped = {(package_name(x), p.name) for x in WORKSPACE.glob('*/package.xml')
               for p in x.parent.glob('launch/*.launch.*')}
    assert shipped == set(SHIPPED)


def _alive(pid):
    try:
        with open(f'/proc/{pid}/stat') as f:     # a zombie has exited
            return f.read().rsplit(')', 1)[1].split()[0] != 'Z'
    except FileNotFoundError:
        return False


@pytest.mark.parametrize('package,name', sorted(SHIPPED), ids=[n for _, n in sorted(SHIPPED)])
def test_ros2_launch_stops_on_sigint_with_exit_0_and_no_process_left(
        package, name, domain_id, tmp_path, monkeypatch):
    count, arguments = SHIPPED[(package, name)]
    monkeypatch.setenv('HORUS_NAMESPACE', f'launch_files_{os.getpid()}_{domain_id}')
    env = wt.localhost_env(domain_id)
    env.update(CYCLONEDDS_URI=cyclone_localhost_uri(), PYTHONUNBUFFERED='1')
    proc = wt.start([shutil.which('ros2') or 'ros2', 'launch', package, name,
                     *arguments(domain_id, tmp_path)], env=env)
    started = re.compile(r'process started with pid \[(\d+)\]')
    try:
        assert wt.wait_for(lambda: len(started.findall(proc.output())) == count, 60), \
            proc.output()
        time.sleep(3.0)     # the processes at work (or a failed one has died)
        assert proc.poll() is None, proc.output()
    finally:
        stopped = wt.stop(proc, timeout=30)
        shm.remove_namespace(os.environ['HORUS_NAMESPACE'])
    pids = [int(p) for p in started.findall(stopped.output)]
    assert (stopped.returncode, stopped.signal) == (0, signal.SIGINT), stopped.output
    assert len(pids) == count and not [p for p in pids if _alive(p)], stopped.output
    assert stopped.output.count('process has finished cleanly') == count, stopped.output
    # (no '[ERROR]' check: on a loaded host heartbeat_monitor may report a node STALE before
    # its first heartbeat, which is the monitor's job, not a launch failure)
    assert 'Traceback' not in stopped.output and 'Callback failed' not in stopped.output, \
        stopped.output
