# SPDX-License-Identifier: Apache-2.0
"""
A fake installed package (an ament prefix) and fresh launch logging.

The package's executables: ``echo_args`` (prints its argv as JSON) and ``lifecycle_talker``
(runs test/lifecycle_talker.py, an rclpy lifecycle node).
"""

import json
import os
import stat
import sys

import launch.logging
import pytest

ECHO_ARGS = f"""#!{sys.executable}
import json, sys
print('ARGV ' + json.dumps(sys.argv[1:]), flush=True)
"""

LIFECYCLE_TALKER = f"""#!{sys.executable}
import runpy
runpy.run_path({os.path.join(os.path.dirname(os.path.abspath(__file__)),
                             'lifecycle_talker.py')!r}, run_name='__main__')
"""


@pytest.fixture(autouse=True)
def launch_log_dir(tmp_path, monkeypatch):
    """Point ROS_LOG_DIR at a temporary folder and reset launch's logging around the test."""
    monkeypatch.setenv('ROS_LOG_DIR', str(tmp_path / 'log'))
    launch.logging.reset()
    yield tmp_path / 'log'
    launch.logging.reset()


@pytest.fixture
def fake_package(tmp_path, monkeypatch):
    """Install 'launch_ros_test_pkg' with lib/<pkg>/echo_args and lib/<pkg>/lifecycle_talker."""
    prefix = tmp_path / 'prefix'
    index = prefix / 'share' / 'ament_index' / 'resource_index' / 'packages'
    index.mkdir(parents=True)
    (index / 'launch_ros_test_pkg').write_text('')
    (prefix / 'share' / 'launch_ros_test_pkg' / 'config').mkdir(parents=True)
    lib = prefix / 'lib' / 'launch_ros_test_pkg'
    lib.mkdir(parents=True)
    for name, text in (('echo_args', ECHO_ARGS), ('lifecycle_talker', LIFECYCLE_TALKER)):
        exe = lib / name
        exe.write_text(text)
        exe.chmod(exe.stat().st_mode | stat.S_IXUSR)
    monkeypatch.setenv('AMENT_PREFIX_PATH',
                       os.pathsep.join([str(prefix), os.environ.get('AMENT_PREFIX_PATH', '')]))
    return prefix


def argv_lines(out):
    """Return the argv lists the echo_args processes printed, in order."""
    return [json.loads(line.split('ARGV ', 1)[1]) for line in out.splitlines()
            if 'ARGV ' in line]
