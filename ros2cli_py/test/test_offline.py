# SPDX-License-Identifier: Apache-2.0
"""
Verbs that need no running node.

pkg, run --prefix, interface list/package(s), bad input, the bag/unknown-verb
messages and the hand-over to a real ros2cli.
"""

import os

from ament_index_python.packages import get_package_prefix
from ament_index_python.packages import get_package_share_directory
from ament_index_python.packages import get_packages_with_prefixes


def one_line_error(result, code=1):
    """ros2cli's kind of failure: the exit code, one line on stderr, no traceback."""
    assert result.code == code, result
    assert 'Traceback' not in result.err, result
    assert len(result.err.strip().splitlines()) == 1, result
    return result.err.strip()


def test_pkg_list_is_the_ament_index(ros2):
    r = ros2('pkg', 'list')
    assert r.code == 0, r
    names = r.out.splitlines()
    assert names == sorted(names)
    for pkg in ('hb50_nodes', 'hb50_commons', 'robstride_sim', 'ros2cli_py', 'std_msgs',
                'rcl_interfaces'):
        assert pkg in names
    assert set(names) >= set(get_packages_with_prefixes())


def test_pkg_prefix(ros2):
    r = ros2('pkg', 'prefix', 'hb50_nodes')
    assert r.code == 0 and r.out == get_package_prefix('hb50_nodes') + '\n', r
    r = ros2('pkg', 'prefix', '--share', 'hb50_nodes')
    assert r.out.strip() == os.path.join(get_package_prefix('hb50_nodes'), 'share', 'hb50_nodes')
    assert one_line_error(ros2('pkg', 'prefix', 'no_such_pkg')) == 'Package not found'


def test_pkg_executables(ros2):
    r = ros2('pkg', 'executables', 'hb50_nodes')
    assert r.code == 0, r
    lines = r.out.splitlines()
    for exe in ('bridge_node', 'control_node', 'heartbeat_monitor'):
        assert f'hb50_nodes {exe}' in lines
    assert lines == sorted(lines)
    r = ros2('pkg', 'executables', '--full-path', 'robstride_sim')
    path = os.path.join(get_package_prefix('robstride_sim'), 'lib', 'robstride_sim',
                        'robstride_sim_node')
    assert path in r.out.splitlines()
    every = ros2('pkg', 'executables').out.splitlines()
    assert 'robstride_sim robstride_sim_node' in every and 'hb50_nodes bridge_node' in every
    assert one_line_error(ros2('pkg', 'executables', 'no_such_pkg')) == 'Package not found'


def test_run_with_prefix_runs_the_installed_executable(ros2):
    exe = os.path.join(get_package_prefix('hb50_nodes'), 'lib', 'hb50_nodes', 'bridge_node')
    r = ros2('run', '--prefix', 'echo PREFIXED', 'hb50_nodes', 'bridge_node', '--ros-args',
             '-p', 'x:=1')
    assert r.code == 0, r
    assert r.out == f'PREFIXED {exe} --ros-args -p x:=1\n'


def test_run_bad_input(ros2):
    assert one_line_error(ros2('run', 'no_such_pkg', 'x')) == "Package 'no_such_pkg' not found"
    assert one_line_error(ros2('run', 'hb50_nodes', 'no_such_exe')) == 'No executable found'
    r = ros2('run', 'hb50_nodes')       # argparse: usage + error, exit 2 like ros2cli
    assert r.code == 2 and 'the following arguments are required' in r.err
    assert 'Traceback' not in r.err


def test_interface_list_packages_package(ros2):
    r = ros2('interface', 'list')
    assert r.code == 0, r
    lines = r.out.splitlines()
    assert lines[0] == 'Messages:'
    assert 'Services:' in lines and 'Actions:' in lines
    assert '    hb50_commons/msg/BridgeData' in lines
    assert '    robstride_interfaces/srv/GetDataFromRobstride' in lines
    assert lines.index('    hb50_commons/srv/EnableFeature') > lines.index('Services:')
    only = ros2('interface', 'list', '-s').out.splitlines()
    assert only[0] == 'Services:' and all(x.startswith('    ') for x in only[1:])
    assert '    hb50_commons/srv/EnableFeature' in only
    pkgs = ros2('interface', 'packages').out.splitlines()
    for pkg in ('hb50_commons', 'robstride_interfaces', 'pnd_adam', 'aimrt_protocols_msgs'):
        assert pkg in pkgs
    assert 'hb50_nodes' not in pkgs
    srv_pkgs = ros2('interface', 'packages', '-s').out.splitlines()
    assert 'robstride_interfaces' in srv_pkgs and 'pnd_adam' not in srv_pkgs
    r = ros2('interface', 'package', 'hb50_commons')
    assert r.out.splitlines() == [
        'hb50_commons/msg/BridgeData', 'hb50_commons/msg/BridgeState',
        'hb50_commons/msg/JointCommand', 'hb50_commons/msg/LegState',
        'hb50_commons/msg/RobotState', 'hb50_commons/msg/Status',
        'hb50_commons/srv/EnableFeature']
    assert one_line_error(ros2('interface', 'package', 'no_such_pkg')) \
        == "Unknown package 'no_such_pkg'"


def test_interface_show_bad_input(ros2):
    # as ros2cli: the .idl path it looked for
    share = os.path.join(get_package_share_directory('hb50_commons'), 'msg', 'NoSuch.idl')
    assert one_line_error(ros2('interface', 'show', 'hb50_commons/msg/NoSuch')) \
        == f"Could not find the interface '{share}'"
    assert one_line_error(ros2('interface', 'show', 'no_such_pkg/msg/X')) \
        == "Unknown package 'no_such_pkg'"
    assert 'Invalid name' in one_line_error(ros2('interface', 'show', 'BridgeData'))
    assert 'Invalid name' in one_line_error(ros2('interface', 'show', 'a/b/c/d'))
    assert 'Invalid name' in one_line_error(ros2('interface', 'show', 'hb50_commons/foo/X'))
    r = ros2('interface', 'show', '-', stdin='hb50_commons/msg/Status\n')
    assert r.code == 0 and r.out.startswith('# Event and health report.'), r


def test_unknown_verbs_and_bag(ros2, tmp_path):
    # `ros2 launch` is a verb now: test_launch.py
    for argv, word in ((['security', 'list'], 'security'), (['lifecycle', 'list'], 'lifecycle')):
        err = one_line_error(ros2(*argv), code=2)
        assert err.startswith(f'ros2 {word}: ')
    r = ros2('topic', 'nope', 'x')      # a verb of a known command: argparse, exit 2
    assert r.code == 2 and 'invalid choice' in r.err and 'Traceback' not in r.err

    # `ros2 bag`: hands the arguments to ros2bag_mcap.cli.main and exits with its code ...
    fake = tmp_path / 'present' / 'ros2bag_mcap'
    fake.mkdir(parents=True)
    (fake / '__init__.py').write_text('')
    (fake / 'cli.py').write_text(
        'def main(argv):\n    print("BAG", argv)\n    return 7\n')
    env = dict(ros2.env, PYTHONPATH=f"{fake.parent}{os.pathsep}{ros2.env.get('PYTHONPATH', '')}")
    r = ros2('bag', 'record', '-a', env=env)
    assert r.code == 7 and r.out == "BAG ['record', '-a']\n", r
    # ... and says what is missing when that module cannot be imported.
    broken = tmp_path / 'missing' / 'ros2bag_mcap'
    broken.mkdir(parents=True)
    (broken / '__init__.py').write_text('raise ImportError("not built")\n')
    env['PYTHONPATH'] = f"{broken.parent}{os.pathsep}{ros2.env.get('PYTHONPATH', '')}"
    assert 'ros2bag_mcap' in one_line_error(ros2('bag', 'info', 'x', env=env), code=2)


def test_hands_over_to_a_real_ros2cli(ros2, tmp_path):
    real = tmp_path / 'ros2cli'
    real.mkdir()
    (real / '__init__.py').write_text('')
    (real / 'cli.py').write_text(
        'import sys\n\ndef main():\n    print("REAL", sys.argv[1:])\n    return 3\n')
    env = dict(ros2.env, PYTHONPATH=f"{tmp_path}{os.pathsep}{ros2.env.get('PYTHONPATH', '')}")
    env.pop('ROS2CLI_PY_NO_DELEGATE')
    r = ros2('topic', 'list', env=env)
    assert r.code == 3 and r.out == "REAL ['topic', 'list']\n", r
    env['ROS2CLI_PY_NO_DELEGATE'] = '1'
    r = ros2('pkg', 'prefix', 'hb50_nodes', env=env)
    assert r.code == 0 and 'REAL' not in r.out, r
