# SPDX-License-Identifier: Apache-2.0
"""
tf2_msgs and the launch packages are built only where the toolchain lacks them.

scripts/workspace.sh's ws_toolchain_skip, called with fake prefixes on AMENT_PREFIX_PATH:
a prefix with share/<package>/package.xml other than the workspace's install skips that
package (issues 23 and 36); the workspace's own install never does.
"""

import os
import pathlib
import subprocess

from ament_index_python.packages import get_package_prefix
import pytest

WORKSPACE = pathlib.Path(__file__).resolve().parents[2]


def skip_arguments(ament_prefix_path, ws_install='/nonexistent/install'):
    """Return what ws_toolchain_skip prints for this AMENT_PREFIX_PATH."""
    script = (f'source "{WORKSPACE}/scripts/workspace.sh"; WS_INSTALL="{ws_install}"; '
              'ws_toolchain_skip')
    env = dict(os.environ, AMENT_PREFIX_PATH=ament_prefix_path)
    result = subprocess.run(['bash', '-c', script], capture_output=True, text=True, env=env,
                            timeout=30)
    assert result.returncode == 0 and result.stderr == '', result
    return result.stdout.split()


def fake_prefix(root, *packages):
    for package in packages:
        share = root / 'share' / package
        share.mkdir(parents=True)
        (share / 'package.xml').write_text(f'<package><name>{package}</name></package>\n')
    return str(root)


@pytest.mark.parametrize('provided,skipped', [
    ((), []),
    (('launch', 'launch_ros'), ['launch', 'launch_ros']),
    (('tf2_msgs',), ['tf2_msgs']),
    (('launch',), ['launch']),
    (('tf2_msgs', 'launch', 'launch_ros', 'rclpy'), ['tf2_msgs', 'launch', 'launch_ros']),
    (('launch', 'launch_ros', 'launch_xml', 'launch_yaml', 'launch_testing',
      'launch_testing_ros'),
     ['launch', 'launch_ros', 'launch_xml', 'launch_yaml', 'launch_testing',
      'launch_testing_ros']),
])
def test_a_prefix_with_the_package_skips_it(tmp_path, provided, skipped):
    prefix = fake_prefix(tmp_path / 'opt_ros', *provided)
    expected = ['--packages-skip', *skipped] if skipped else []
    assert skip_arguments(f'{tmp_path / "empty"}:{prefix}') == expected


def test_the_workspace_install_itself_does_not_count(tmp_path):
    install = tmp_path / 'install' / 'kilted'
    own = fake_prefix(install / 'launch', 'launch')
    assert skip_arguments(f'{own}:{tmp_path / "venv"}', ws_install=str(install)) == []
    other = fake_prefix(tmp_path / 'system', 'launch_ros')
    assert skip_arguments(f'{own}:{other}', ws_install=str(install)) == \
        ['--packages-skip', 'launch_ros']


def test_this_toolchain_builds_launch_only_if_it_has_none():
    """The sourced toolchain's launch is either the workspace's own or a distro's."""
    prefix = pathlib.Path(get_package_prefix('launch')).resolve()
    own = (WORKSPACE / 'install').resolve()
    toolchain = [p for p in os.environ.get('AMENT_PREFIX_PATH', '').split(os.pathsep)
                 if p and not pathlib.Path(p).resolve().is_relative_to(own)]
    if own in prefix.parents:
        assert not any((pathlib.Path(p) / 'share' / 'launch' / 'package.xml').exists()
                       for p in toolchain)
    else:
        assert str(prefix) in [str(pathlib.Path(p).resolve()) for p in toolchain]
