# SPDX-License-Identifier: Apache-2.0
"""
SIGINT and SIGTERM at any moment: every executable exits 0 without a traceback.

Moments: during imports (~0.05 s after exec), during start-up, and in steady state (the node
cycling, the fake motors answering, the CLI waiting for an answer). The processes of one
executable run side by side to keep the test short.
"""
import itertools
import os
import signal
import subprocess
import time

import pytest

from rs_harness import executable, mode_params, _param_args, stop_process

_names = itertools.count()
EARLY = (0.05, 0.4, 1.2)          # seconds after exec: imports, start-up


def launch(cmd, tmp_path):
    log = tmp_path / f'out_{next(_names)}.log'
    with open(log, 'w') as out:
        proc = subprocess.Popen(cmd, stdout=out, stderr=subprocess.STDOUT)
    return proc, log


def wait_for_text(log, text, timeout=60.0):
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        if text in log.read_text(errors='replace'):
            return
        time.sleep(0.05)
    raise AssertionError(f'{text!r} not in {log}: {log.read_text(errors="replace")[-2000:]}')


def check_exit(proc, log, sig):
    try:
        rc = proc.wait(timeout=30)
    finally:
        stop_process(proc)
    out = log.read_text(errors='replace')
    assert rc == 0, f'{signal.Signals(sig).name}: exit {rc}\n{out[-3000:]}'
    for bad in ('Traceback', 'RCLError', '[FATAL]', 'Exception'):
        assert bad not in out, f'{signal.Signals(sig).name}: {bad} in output\n{out[-3000:]}'


def run_moments(make_cmd, tmp_path, ready_text):
    """Start one process per (signal, moment) and signal each at its moment."""
    runs = []
    start = time.monotonic()
    for sig in (signal.SIGINT, signal.SIGTERM):
        for delay in EARLY:
            runs.append((sig, start + delay, *launch(make_cmd(), tmp_path)))
    for sig, when, proc, log in sorted(runs, key=lambda r: r[1]):
        time.sleep(max(0.0, when - time.monotonic()))
        proc.send_signal(sig)
    for sig, _, proc, log in runs:
        check_exit(proc, log, sig)
    for sig in (signal.SIGINT, signal.SIGTERM):        # steady state
        proc, log = launch(make_cmd(), tmp_path)
        wait_for_text(log, ready_text)
        time.sleep(0.5)
        proc.send_signal(sig)
        check_exit(proc, log, sig)


@pytest.mark.parametrize('mode', ['sim', 'can'])
def test_node_exits_cleanly_on_signals(ros, tmp_path, mode):
    def cmd():
        ns = f'/rs_sig_{os.getpid()}_{next(_names)}'
        return [executable('robstride_sim_node'), '--ros-args', '-r', f'__ns:={ns}',
                *_param_args(mode_params(mode))]
    run_moments(cmd, tmp_path, 'RobStride motor(s)')


def test_fake_motors_exit_cleanly_on_signals(tmp_path):
    def cmd():
        return [executable('robstride_fake_motors'), '--interface', 'virtual', '--channel',
                f'sig{next(_names)}', '--motors', '1:RS02,2:RS03']
    run_moments(cmd, tmp_path, 'robstride_fake_motors: id 1')


def test_cli_exits_cleanly_on_signals(ros, tmp_path):
    def cmd():                  # waits up to 60 s for a node that does not exist
        return [executable('robstride_cli'), '--prefix', f'/nobody_{next(_names)}/x',
                '--timeout', '60', 'get', '1', 'position']
    runs = []
    for sig in (signal.SIGINT, signal.SIGTERM):
        for delay in EARLY + (3.0,):
            runs.append((sig, delay, *launch(cmd(), tmp_path)))
    start = time.monotonic()
    for sig, delay, proc, log in sorted(runs, key=lambda r: r[1]):
        time.sleep(max(0.0, start + delay - time.monotonic()))
        proc.send_signal(sig)
    for sig, _, proc, log in runs:
        check_exit(proc, log, sig)
