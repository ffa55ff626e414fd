# SPDX-License-Identifier: Apache-2.0
"""
Losing a node, and the terminal live view.

Separate processes only: one process cannot lose one node.
"""

import signal
import time

from hb50_nodes import levels
from hb50_nodes.control_core import ControlConfig, ControlCore, MODE_STAND
from hb50_nodes.kinematics import LegGeometry
import numpy as np
import pytest
import rosharness as rh

STAND = ControlCore(ControlConfig(), LegGeometry()).stand_pose()


@pytest.fixture(scope='module')
def stack(domain_id):
    procs = {name: rh.start(name)
             for name in ('bridge_node', 'control_node', 'heartbeat_monitor')}
    probe = rh.Probe()
    try:
        rh.wait_for(lambda: _standing(probe), 30.0)
        yield {'procs': procs, 'probe': probe}
    finally:
        probe.close()
        for proc in procs.values():
            rh.stop(proc)
        rh.clean_shared_memory()     # control_node was killed with SIGKILL


def _standing(probe, tol=0.05):
    data = probe.latest(probe.topics.BRIDGE_DATA)
    state = probe.latest(probe.topics.ROBOT_STATE)
    return (data is not None and state is not None
            and np.max(np.abs(np.asarray(data.joint_position) - STAND)) < tol
            and state.motion_mode[0] == MODE_STAND)


def test_live_view_shows_rates_and_heartbeats(stack):
    proc = rh.start('live_view', '-p', 'duration:=3.0', '-p', 'refresh_rate:=2.0')
    try:
        proc.wait(30.0)
    finally:
        out = rh.stop(proc).output
    frames = out.split('\033[H\033[2J')[1:]
    assert frames, out

    def complete(frame):
        return ('/hb50/bridge_data' in frame and 'joints (rad)' in frame
                and 'bridge_node' in frame and 'control_node' in frame)

    full = [f for f in frames if complete(f)]
    assert full, frames[-1]
    rate = float(full[-1].split('/hb50/bridge_data')[1].split()[0])
    assert rate > 50.0


def test_stale_detection_damping_and_recovery(stack):
    probe = stack['probe']
    procs = stack['procs']
    t0 = time.monotonic()
    procs['control_node'].send_signal(signal.SIGKILL)     # a crash, not a clean shutdown
    procs['control_node'].wait(5.0)
    assert rh.wait_for(lambda: probe.statuses(t0, levels.STALE, 'control_node'), 5.0)
    stale = probe.statuses(t0, levels.STALE, 'control_node')[0]
    assert stale.reporting_node == 'control_node'
    assert rh.wait_for(lambda: probe.statuses(t0, levels.WARN, 'safe damping'), 5.0)
    assert rh.wait_for(lambda: not probe.latest(probe.topics.BRIDGE_STATE).drives_enabled, 5.0)
    t1 = time.monotonic()
    procs['control_node'] = rh.start('control_node')
    assert rh.wait_for(lambda: probe.statuses(t1, levels.OK, 'control_node: heartbeat resumed'),
                       20.0)
    assert rh.wait_for(lambda: probe.latest(probe.topics.BRIDGE_STATE).drives_enabled, 10.0)
    assert rh.wait_for(lambda: _standing(probe), 20.0)
