# SPDX-License-Identifier: Apache-2.0
"""
SIGINT and SIGTERM at any moment: every executable exits 0 without a traceback.

Moments: during imports (as soon as the process catches SIGTERM, i.e. the first project
import ran; rclpy/python-can are still being imported), 0.4 s later (start-up), and in steady
state (the node cycling, the fake motors answering, the CLI waiting for an answer). The
processes of one executable run side by side to keep the test short. (Before the first
project import, during the interpreter's own start-up, no Python code of ours can run.)
"""
import itertools
import os
import signal
import time

import pytest

from rs_harness import mode_params, node_executable, param_args
from workspace_testing import start, stop
from workspace_testing.signals import wait_for_handlers

_names = itertools.count()
SIGTERM_ONLY = (signal.SIGTERM,)   # handlers installed: the first project import ran
EARLY = (0.0, 0.4)                # seconds after the handlers exist: imports, start-up


def wait_for_text(proc, text, timeout=60.0):
    assert proc.wait_for_output(text, timeout), f'{text!r} not in: {proc.output()[-2000:]}'


def check_exit(proc, sig):
    """Check the process, sent `sig` by the test, exits 0 by itself (stop() only reaps it)."""
    try:
        rc = proc.wait(timeout=30)
    finally:
        result = stop(proc)
    out = result.output
    assert rc == 0, f'{signal.Signals(sig).name}: exit {rc}\n{out[-3000:]}'
    for bad in ('Traceback', 'RCLError', '[FATAL]', 'Exception'):
        assert bad not in out, f'{signal.Signals(sig).name}: {bad} in output\n{out[-3000:]}'


def signal_at_moments(make_cmd, delays, ready_text=None):
    """
    One process per (signal, moment), all started together.

    delays: seconds after the process's handlers exist; with ready_text, one more process per
    signal is signalled 0.5 s after it printed that text (steady state).
    """
    runs = [(sig, delay, start(make_cmd()))
            for sig in (signal.SIGINT, signal.SIGTERM) for delay in delays]
    steady = ([(sig, start(make_cmd())) for sig in (signal.SIGINT, signal.SIGTERM)]
              if ready_text else [])
    try:
        for sig, delay, proc in runs:
            if delay == 0.0:
                wait_for_handlers(proc, signals=SIGTERM_ONLY)
                proc.send_signal(sig)
        ready = {id(proc): wait_for_handlers(proc, signals=SIGTERM_ONLY)
                 for _, delay, proc in runs if delay}
        for sig, delay, proc in sorted(runs, key=lambda r: r[1]):
            if delay:
                time.sleep(max(0.0, ready[id(proc)] + delay - time.monotonic()))
                proc.send_signal(sig)
        for sig, proc in steady:
            wait_for_text(proc, ready_text)
        time.sleep(0.5)
        for sig, proc in steady:
            proc.send_signal(sig)
        for sig, _, proc in runs:
            check_exit(proc, sig)
        for sig, proc in steady:
            check_exit(proc, sig)
    finally:                    # none left running when an assertion failed
        for proc in [r[-1] for r in runs + steady]:
            stop(proc)


@pytest.mark.parametrize('mode', ['sim', 'can'])
def test_node_exits_cleanly_on_signals(ros, mode):
    def cmd():
        ns = f'/rs_sig_{os.getpid()}_{next(_names)}'
        return [node_executable('robstride_sim_node'), '--ros-args', '-r', f'__ns:={ns}',
                *param_args(mode_params(mode))]
    # The start-up path is the same in both modes; 'can' adds the CAN threads to stop.
    signal_at_moments(cmd, EARLY if mode == 'sim' else (), 'RobStride motor(s)')


def test_fake_motors_exit_cleanly_on_signals():
    def cmd():
        return [node_executable('robstride_fake_motors'), '--interface', 'virtual', '--channel',
                f'sig{next(_names)}', '--motors', '1:RS02,2:RS03']
    signal_at_moments(cmd, EARLY, 'robstride_fake_motors: id 1')


def test_cli_exits_cleanly_on_signals(ros):
    def cmd():                  # waits up to 60 s for a node that does not exist
        return [node_executable('robstride_cli'), '--prefix', f'/nobody_{next(_names)}/x',
                '--timeout', '60', 'get', '1', 'position']
    signal_at_moments(cmd, EARLY + (3.0,))
