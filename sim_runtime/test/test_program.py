# SPDX-License-Identifier: Apache-2.0
"""
The simulator main() body, run in a child process as a launcher script runs it.

SIGINT and SIGTERM exit 0 with the summary line after the teardown; --duration ends the run
with 0; a bad configuration exits 2 with one line, a failure (a port in use) 1.
"""

import os
import pathlib
import signal
import sys

from node_runtime.stop import launcher_source
import pytest
from workspace_testing import start, stop

HERE = pathlib.Path(__file__).resolve().parent


def run_fake(*args, fail=None):
    env = dict(os.environ)
    env['PYTHONPATH'] = os.pathsep.join([str(HERE), env.get('PYTHONPATH', '')])
    if fail:
        env['FAKE_SIM_FAIL'] = fail
    return start([sys.executable, '-S', '-c', launcher_source('fake_simulation', argv=True),
                  *args], env=env)


@pytest.mark.parametrize('signum', [signal.SIGINT, signal.SIGTERM])
def test_a_stop_signal_exits_0_after_the_teardown(signum):
    proc = run_fake('--ros-args', '-r', '__node:=x')
    assert proc.wait_for_output('running: fake', 30.0), proc.output()
    stopped = stop(proc, first=signum)
    assert stopped.returncode == 0 and stopped.signal == signum, stopped.output
    assert 'stopped after' in stopped.output and '(started True)' in stopped.output
    assert 'Traceback' not in stopped.output


def test_duration_ends_the_run_with_0():
    proc = run_fake('--duration', '0.05')
    assert proc.wait(30.0) == 0, proc.output()
    assert 'stopped after 5 ticks' in proc.output()


def test_bad_configuration_exits_2_with_one_line():
    proc = run_fake('--config', 'bad')
    assert proc.wait(30.0) == 2
    assert proc.output().strip().splitlines() == [
        'fake_sim: configuration error: bad: not a configuration']
    assert 'running:' not in proc.output() and 'Traceback' not in proc.output()


def test_a_port_in_use_is_a_failure_not_the_configuration():
    proc = run_fake(fail='bind')
    assert proc.wait(30.0) == 1
    assert 'Address already in use' in proc.output() and 'running:' not in proc.output()
