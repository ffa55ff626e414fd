# SPDX-License-Identifier: Apache-2.0
"""Start, wait on output, and the SIGINT -> SIGTERM -> SIGKILL stop."""

import os
import signal
import sys

import pytest
from workspace_testing import start, stop, wait_for

CHILD = os.path.join(os.path.dirname(__file__), 'fixtures', 'signal_child.py')


def child(mode):
    proc = start([sys.executable, CHILD, mode])
    assert proc.wait_for_output('ready', 20), proc.output()
    return proc


def test_clean_exit_on_the_first_signal():
    result = stop(child('exit'), timeout=5)
    assert (result.returncode, result.signal) == (0, signal.SIGINT)
    assert result.output == 'ready\n'


def test_sigterm_when_sigint_is_ignored():
    result = stop(child('ignore_int'), timeout=1)
    assert (result.returncode, result.signal) == (3, signal.SIGTERM)


def test_sigkill_as_a_last_resort():
    proc = child('ignore_all')
    result = proc.stop(timeout=0.5)
    assert (result.returncode, result.signal) == (-signal.SIGKILL, signal.SIGKILL)
    assert proc.poll() is not None
    assert stop(proc) is result      # stopping again changes nothing


def test_sigterm_first_when_asked():
    result = stop(child('exit'), timeout=5, first=signal.SIGTERM)
    assert (result.returncode, result.signal) == (0, signal.SIGTERM)


def test_process_that_exited_by_itself():
    proc = start([sys.executable, '-c', 'print("bye"); raise SystemExit(4)'])
    assert wait_for(lambda: proc.poll() is not None, 20)
    assert stop(proc) == (4, 'bye\n', None)


def test_wait_for_output_gives_up_when_the_process_exits():
    proc = start([sys.executable, '-c', 'print("something else")'])
    assert proc.wait_for_output('never printed', 30) is None
    assert proc.poll() == 0


@pytest.mark.parametrize('pattern', ['n=42', r'n=\d+'])
def test_wait_for_output_matches_text_or_regex(pattern):
    import re
    proc = start([sys.executable, '-c', 'import time; print("n=42", flush=True); time.sleep(30)'])
    try:
        match = proc.wait_for_output(re.compile(pattern) if '\\' in pattern else pattern, 20)
        assert match is not None and match.group(0) == 'n=42'
    finally:
        assert stop(proc, timeout=5).signal == signal.SIGINT


def test_a_runner_that_ignores_sigint_still_stops_its_children_with_sigint():
    # As a test runner started by `cmd &` in a script: SIGINT ignored before the import.
    code = '\n'.join([
        'import signal, sys',
        'signal.signal(signal.SIGINT, signal.SIG_IGN)',
        'from workspace_testing import start, stop',
        'child = "import time; print(1, flush=True); time.sleep(30)"',
        "proc = start([sys.executable, '-c', child])",
        "assert proc.wait_for_output('1', 20)",
        'print(int(stop(proc, timeout=5).signal))'])
    runner = start([sys.executable, '-c', code])
    try:
        runner.wait(60)
    finally:
        result = stop(runner)
    assert (result.returncode, result.output) == (0, '2\n')


def test_wait_for_returns_the_last_value():
    values = iter([0, '', 'done'])
    assert wait_for(lambda: next(values), 5, period=0) == 'done'
    assert wait_for(lambda: [], 0.05, period=0.01) == []


def test_a_plain_popen_is_stopped_too():
    import subprocess
    popen = subprocess.Popen([sys.executable, CHILD, 'ignore_int'], stdout=subprocess.PIPE,
                             text=True)
    assert popen.stdout.readline() == 'ready\n'
    assert stop(popen, timeout=1) == (3, None, signal.SIGTERM)
    popen.stdout.close()


def test_stderr_kept_apart_when_asked():
    code = 'import sys; print("out"); print("err", file=sys.stderr)'
    merged = start([sys.executable, '-c', code])
    apart = start([sys.executable, '-c', code], separate_stderr=True)
    assert wait_for(lambda: merged.poll() is not None and apart.poll() is not None, 20)
    assert sorted(merged.output().split()) == ['err', 'out'] and merged.errors() is None
    assert (apart.output(), apart.errors()) == ('out\n', 'err\n')
    assert stop(apart).output == 'out\n' and apart.errors() == 'err\n'
    stop(merged)
