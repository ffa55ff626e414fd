# SPDX-License-Identifier: Apache-2.0
"""
launch_testing.actions GTest, PyTest and Test.

Upstream's test_launch_testing/actions/test_gtest.py and test_pytest.py behaviour,
rewritten: a test that finishes, and a test that locks and is stopped after its timeout;
the GTest "binary" is a small executable script.
"""

import stat
import sys
import time

import launch
from launch.actions import EmitEvent
from launch.event_handlers import OnProcessExit
from launch.events import Shutdown
from launch_testing.actions import GTest, PyTest, Test
import pytest

GTEST_LIKE = f"""#!{sys.executable}
import signal, sys, time
signal.signal(signal.SIGINT, lambda *_: sys.exit(130))
print('[==========] Running 1 test from 1 test suite.', flush=True)
if '--lock' in sys.argv[1:] or sys.argv[0].endswith('locking'):
    while True:
        time.sleep(0.1)
print('[  PASSED  ] 1 test.', flush=True)
"""


def executable(tmp_path, name):
    path = tmp_path / name
    path.write_text(GTEST_LIKE)
    path.chmod(path.stat().st_mode | stat.S_IXUSR)
    return str(path)


def run_test_action(action):
    """Run the test action alone; return (launch exit code, test exit code, seconds)."""
    codes = []
    service = launch.LaunchService()
    service.include_launch_description(launch.LaunchDescription([
        launch.actions.RegisterEventHandler(OnProcessExit(
            target_action=action, on_exit=lambda event, context: codes.append(
                event.returncode))),
        action,
    ]))
    start = time.monotonic()
    rc = service.run()
    return rc, codes, time.monotonic() - start


def test_gtest_that_finishes(tmp_path):
    action = GTest(path=executable(tmp_path, 'dummy'), timeout=5.0,
                   on_exit=[EmitEvent(event=Shutdown())])
    assert action.path.endswith('dummy') and action.timeout == 5.0
    rc, codes, seconds = run_test_action(action)
    assert (rc, codes) == (0, [0])
    assert seconds < 5.0


def test_gtest_that_locks_is_stopped_after_its_timeout(tmp_path, capfd):
    action = GTest(path=executable(tmp_path, 'locking'), timeout=1.0,
                   on_exit=[EmitEvent(event=Shutdown())])
    rc, codes, seconds = run_test_action(action)
    assert (rc, codes) == (0, [130])    # SIGINT at the timeout
    assert 1.0 <= seconds < 5.0
    out, err = capfd.readouterr()
    assert 'Traceback' not in out + err


def test_pytest_that_passes(tmp_path):
    test_file = tmp_path / 'dummy.py'
    test_file.write_text('def test_dummy():\n    assert 1 + 1 == 2\n')
    action = PyTest(path=str(test_file), timeout=60.0, on_exit=[EmitEvent(event=Shutdown())])
    assert [s.perform(None) for s in action.cmd[-1]] == [str(test_file)]
    rc, codes, _ = run_test_action(action)
    assert (rc, codes) == (0, [0])


def test_pytest_that_locks_is_stopped_after_its_timeout(tmp_path, capfd):
    test_file = tmp_path / 'locking.py'
    test_file.write_text('import time\n\n\ndef test_locking():\n    time.sleep(60)\n')
    action = PyTest(path=str(test_file), timeout=2.0, on_exit=[EmitEvent(event=Shutdown())])
    rc, codes, seconds = run_test_action(action)
    assert rc == 0 and len(codes) == 1 and codes[0] != 0
    assert seconds < 10.0
    out, err = capfd.readouterr()
    assert 'Traceback' not in out + err


@pytest.mark.parametrize('timeout', [None, 0])
def test_no_timeout_means_no_limit(tmp_path, timeout):
    action = Test(cmd=[sys.executable, '-c', 'import time; time.sleep(0.5)'], timeout=timeout)
    assert action.kill_timeout == 5.0
    rc, codes, seconds = run_test_action(action)
    assert (rc, codes) == (0, [0]) and seconds >= 0.5
