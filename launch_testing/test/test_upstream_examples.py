# SPDX-License-Identifier: Apache-2.0
"""
ros2/launch's launch_testing examples, unchanged (upstream_examples/), on this launch_testing.

Each through ``launch_test`` (as upstream's CMake runs them: ``args_launch_test.py`` with
``dut_arg:=arg``), and all of them in one pytest run (as upstream's pytest.ini:
``--launch-args dut_arg:=test``). They find good_proc.py and terminating_proc.py in
``<prefix>/lib/launch_testing`` as upstream installs them.
"""

import os
import shutil
import subprocess
import sys

import pytest

HERE = os.path.dirname(os.path.abspath(__file__))
UPSTREAM = os.path.join(HERE, 'upstream_examples')
# file -> (launch arguments, test methods run in all its runs)
EXAMPLES = {
    'args_launch_test.py': (['dut_arg:=arg'], 4),
    'context_launch_test.py': ([], 5),
    'good_proc_launch_test.py': ([], 4),
    'hello_world_launch_test.py': ([], 2),
    'parameters_launch_test.py': ([], 3),
    'ready_action_test.py': ([], 4),
    'terminating_proc_launch_test.py': ([], 3),
}


def clean_env(tmp_path):
    env = dict(os.environ, ROS_LOG_DIR=str(tmp_path / 'log'))
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


@pytest.mark.parametrize('name', sorted(EXAMPLES))
def test_example_through_launch_test(name, tmp_path):
    command = shutil.which('launch_test')
    assert command, 'launch_test is not on PATH (source the install)'
    arguments, tests = EXAMPLES[name]
    result = subprocess.run([command, os.path.join(UPSTREAM, name), *arguments],
                            capture_output=True, text=True, timeout=120,
                            stdin=subprocess.DEVNULL, env=clean_env(tmp_path))
    assert result.returncode == 0, result.stdout + result.stderr
    assert ran_and_failed(result.stdout) == (tests, 0), result.stdout
    assert 'Traceback' not in result.stdout + result.stderr


def test_args_example_fails_without_its_argument(tmp_path):
    """Upstream's args example asserts that dut_arg was given: the default fails it."""
    result = subprocess.run([shutil.which('launch_test') or 'launch_test',
                             os.path.join(UPSTREAM, 'args_launch_test.py')],
                            capture_output=True, text=True, timeout=120,
                            stdin=subprocess.DEVNULL, env=clean_env(tmp_path))
    assert result.returncode == 1, result.stdout + result.stderr
    assert 'test_ran_with_arg' in result.stderr
    assert 'Traceback' not in result.stdout


def test_all_examples_through_pytest(tmp_path):
    """One pytest run of every example (and the 15 s ready_to_test_action_timeout one)."""
    target = tmp_path / 'examples'
    target.mkdir()
    names = sorted(EXAMPLES) + ['ready_to_test_action_timeout_test.py']
    for name in names:
        shutil.copy(os.path.join(UPSTREAM, name), target / name)
    result = subprocess.run(
        [sys.executable, '-m', 'pytest', '-p', 'no:cacheprovider', '-rA',
         '--launch-args', 'dut_arg:=test', *[str(target / n) for n in names]],
        capture_output=True, text=True, timeout=300, stdin=subprocess.DEVNULL,
        env=clean_env(tmp_path), cwd=str(tmp_path))
    assert result.returncode == 0, result.stdout + result.stderr
    passed = [line for line in result.stdout.splitlines() if line.startswith('PASSED ')]
    # one item per run: parameters_launch_test has three
    assert len(passed) == len(names) + 2, result.stdout
    assert sum('parameters_launch_test[arg_param=' in line for line in passed) == 3
    assert 'Traceback' not in result.stdout
