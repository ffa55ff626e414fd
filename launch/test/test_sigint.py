# SPDX-License-Identifier: Apache-2.0
"""A launch process as a user stops it: SIGINT or SIGTERM to it, exit 0, no child left."""

import os
import re
import signal
import subprocess
import sys
import time

import pytest

SCRIPT = os.path.join(os.path.dirname(os.path.abspath(__file__)), 'launch_sigint.py')


def start(tmp_path, *args):
    env = dict(os.environ, ROS_LOG_DIR=str(tmp_path / 'log'), PYTHONUNBUFFERED='1',
               PYTHONPATH=os.pathsep.join(sys.path))
    return subprocess.Popen([sys.executable, SCRIPT, *args], stdout=subprocess.PIPE,
                            stderr=subprocess.STDOUT, text=True, env=env,
                            stdin=subprocess.DEVNULL, start_new_session=True)


def wait_ready(proc):
    lines = []
    deadline = time.monotonic() + 20
    while time.monotonic() < deadline:
        line = proc.stdout.readline()
        lines.append(line)
        if sum('ready' in x for x in lines) == 2:
            return lines
    raise AssertionError(''.join(lines))


def alive(pid):
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    return True


@pytest.mark.parametrize('sig', [signal.SIGINT, signal.SIGTERM])
def test_signal_stops_every_child_and_exits_zero(tmp_path, sig):
    proc = start(tmp_path, '-n')
    try:
        head = wait_ready(proc)
        proc.send_signal(sig)
        rest, _ = proc.communicate(timeout=20)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
    out = ''.join(head) + rest
    assert proc.returncode == 0, out
    pids = [int(p) for p in re.findall(r'process started with pid \[(\d+)\]', out)]
    assert len(pids) == 2 and not any(alive(p) for p in pids), out
    if sig == signal.SIGINT:
        assert '[WARNING] [launch]: user interrupted with ctrl-c (SIGINT)' in out
    assert re.search(r"sending signal 'SIGINT' to process\[polite-\d+\]", out)
    assert re.search(r"process\[stubborn-\d+\] failed to terminate '0.5' seconds after "
                     r"receiving 'SIGINT', escalating to 'SIGTERM'", out)
    assert re.search(r'\[INFO\] \[polite-\d+\]: process has finished cleanly \[pid \d+\]', out)
    assert 'Traceback' not in out


def test_second_sigint_is_ignored(tmp_path):
    proc = start(tmp_path, '-n')
    try:
        head = wait_ready(proc)
        proc.send_signal(signal.SIGINT)
        time.sleep(0.2)
        proc.send_signal(signal.SIGINT)
        rest, _ = proc.communicate(timeout=20)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
    out = ''.join(head) + rest
    assert proc.returncode == 0, out
    assert 'user interrupted with ctrl-c (SIGINT) again, ignoring...' in out
