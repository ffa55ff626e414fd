# SPDX-License-Identifier: Apache-2.0
"""The launch_test command and the pytest plugin on the examples (examples/)."""

import os
import shutil
import subprocess
import sys
from xml.etree import ElementTree

import pytest

EXAMPLES = os.path.join(os.path.dirname(os.path.abspath(__file__)), 'examples')


def launch_test(*args, **kwargs):
    command = shutil.which('launch_test')
    assert command, 'launch_test is not on PATH (source the install)'
    return subprocess.run([command, *args], capture_output=True, text=True, timeout=120,
                          stdin=subprocess.DEVNULL, **kwargs)


@pytest.mark.parametrize('name, tests', [('good_proc_launch_test.py', 4),
                                         ('parametrized_launch_test.py', 4),
                                         ('legacy_ready_fn_launch_test.py', 2)])
def test_launch_test_command_passes(name, tests, tmp_path):
    junit = tmp_path / 'results.xml'
    result = launch_test(os.path.join(EXAMPLES, name), '--junit-xml', str(junit),
                         env=dict(os.environ, ROS_LOG_DIR=str(tmp_path / 'log')))
    assert result.returncode == 0, result.stdout + result.stderr
    assert 'Traceback' not in result.stderr
    suites = ElementTree.parse(junit).getroot()
    assert suites.tag == 'testsuites' and len(suites) >= 1
    assert all(s.get('failures') == '0' and s.get('errors') == '0' for s in suites)
    assert sum(int(s.get('tests')) for s in suites) >= tests


def test_launch_test_command_reports_failures(tmp_path):
    junit = tmp_path / 'results.xml'
    result = launch_test(os.path.join(EXAMPLES, 'failing_example.py'), '--junit-xml',
                         str(junit), env=dict(os.environ, ROS_LOG_DIR=str(tmp_path / 'log')))
    assert result.returncode == 1, result.stdout + result.stderr
    assert 'test_waits_for_what_never_comes' in result.stderr
    assert "Waiting for output 'goodbye' timed out" in result.stderr
    assert 'active tests: ran 2, 1 failed, 0 errors' in result.stdout
    [suite] = ElementTree.parse(junit).getroot()
    assert suite.get('failures') == '1'


def test_launch_test_command_bad_input(tmp_path):
    result = launch_test(str(tmp_path / 'missing.py'))
    assert result.returncode == 1 and result.stderr.startswith('launch_test: ')
    empty = tmp_path / 'empty_launch_test.py'
    empty.write_text('x = 1\n')
    result = launch_test(str(empty))
    assert result.returncode == 1
    assert 'has no generate_test_description()' in result.stderr
    assert 'Traceback' not in result.stderr


def pytest_env(tmp_path):
    env = dict(os.environ, ROS_LOG_DIR=str(tmp_path / 'log'))
    env.pop('PYTEST_ADDOPTS', None)     # colcon's options are not for the inner run
    return env


def test_pytest_plugin_collects_and_runs(tmp_path):
    result = subprocess.run(
        [sys.executable, '-m', 'pytest', '-p', 'no:cacheprovider', '-rA',
         os.path.join(EXAMPLES, 'good_proc_launch_test.py'),
         os.path.join(EXAMPLES, 'parametrized_launch_test.py')],
        capture_output=True, text=True, timeout=180, stdin=subprocess.DEVNULL,
        env=pytest_env(tmp_path), cwd=str(tmp_path))
    assert result.returncode == 0, result.stdout + result.stderr
    passed = [line for line in result.stdout.splitlines() if line.startswith('PASSED ')]
    assert len(passed) == 3, result.stdout
    assert any(line.endswith('parametrized_launch_test[code=3]') for line in passed)


def test_pytest_plugin_reports_a_failing_launch_test(tmp_path):
    target = tmp_path / 'failing_launch_test.py'
    shutil.copy(os.path.join(EXAMPLES, 'failing_example.py'), target)
    result = subprocess.run(
        [sys.executable, '-m', 'pytest', '-p', 'no:cacheprovider', '-rA', str(target)],
        capture_output=True, text=True, timeout=180, stdin=subprocess.DEVNULL,
        env=pytest_env(tmp_path), cwd=str(tmp_path))
    assert result.returncode == 1, result.stdout + result.stderr
    assert 'FAILED failing_launch_test.py::failing_launch_test' in result.stdout
    assert "Waiting for output 'goodbye' timed out" in result.stdout
