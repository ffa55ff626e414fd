# SPDX-License-Identifier: Apache-2.0
"""
Every executable stops cleanly on SIGINT and SIGTERM at any moment.

Exit 0, without a traceback, FATAL line or rosout complaint, when the signal arrives during
its imports, its start-up or in steady state.

The five executables of one (signal, moment) run at once, in one domain, so that they also
talk to each other (the heartbeat monitor has heartbeats to check, the bridge commands to
validate). Before ~10-30 ms after exec the interpreter itself is still starting and no Python
code can handle a signal; the earliest moment here is after that (see node_runtime/stop.py).
"""

import signal
import subprocess
import time

import pytest
import rosharness as rh
from workspace_testing.signals import catches

EXECUTABLES = ('bridge_node', 'control_node', 'heartbeat_monitor', 'hb50_stack', 'live_view')
# When the signal is sent: 'imports' as soon as the process catches SIGTERM (the launcher has
# installed its handlers; rclpy, numpy and the nodes' modules take ~0.7 s more to import);
# then 0.8 s after start (imports ending, nodes being built) and 3 s (steady state: nodes
# spinning, 500 Hz loops running, heartbeats flowing).
MOMENTS = {'imports': 0.0, 'start-up': 0.8, 'steady': 3.0}
BAD = ('Traceback', 'FATAL', 'Failed to publish', 'KeyboardInterrupt', 'Exception in')


@pytest.mark.parametrize('moment', MOMENTS)
@pytest.mark.parametrize('sig', [signal.SIGINT, signal.SIGTERM], ids=['SIGINT', 'SIGTERM'])
def test_stops_cleanly(sig, moment, domain_id):
    procs = {name: rh.start(name) for name in EXECUTABLES}
    if moment == 'imports':
        handled = {}
        for name, proc in procs.items():
            handled[name] = rh.wait_for(lambda: catches(proc.pid, (signal.SIGTERM,)), 10.0, 0.001)
            proc.send_signal(sig)
        assert all(handled.values()), handled
    else:
        time.sleep(MOMENTS[moment])
    alive_at_signal = {name: proc.poll() is None for name, proc in procs.items()}
    if moment != 'imports':
        for proc in procs.values():
            proc.send_signal(sig)
    outcomes = {}
    for name, proc in procs.items():
        try:
            proc.wait(15.0)
        except subprocess.TimeoutExpired:
            pass
        # Exited by itself within 15 s: stop() then sends nothing (signal None).
        outcomes[name] = rh.stop(proc)
    rh.clean_shared_memory()
    assert all(alive_at_signal.values()), alive_at_signal
    for name, (code, out, sent) in outcomes.items():
        assert code == 0 and sent is None, f'{name}: exit {code} (sent {sent})\n{out[-3000:]}'
        for word in BAD:
            assert word not in out, f'{name}: {word!r} in its output\n{out[-3000:]}'
