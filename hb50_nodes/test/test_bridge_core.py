# SPDX-License-Identifier: Apache-2.0
"""bridge_node's core without ROS: damped start, rejection, watchdog, hand-back."""

from conftest import command
from hb50_nodes import levels
from hb50_nodes.arbitration import Arbiter
from hb50_nodes.bridge_core import BridgeConfig, BridgeCore
from hb50_nodes.kinematics import LegGeometry
from hb50_nodes.physics import SimConfig
from hb50_nodes.validation import GainLimits
import numpy as np

DT = 0.002


def make():
    return BridgeCore(BridgeConfig(), SimConfig(), LegGeometry(), GainLimits(), Arbiter(), 0.0)


def test_starts_damped_and_enables_on_first_valid_command():
    core = make()
    assert not core.drives_enabled
    events = core.on_command(command(), 0.0)
    assert core.drives_enabled and events[0][0] == levels.OK


def test_rejected_command_is_counted_reported_and_never_applied():
    core = make()
    core.on_command(command(t_pos=[0.3] * 12), 0.0)
    before = core.command
    events = core.on_command(command(t_pos=[float('nan')] * 12), 0.001)
    assert core.command is before and core.rejected == 1
    assert events[0][0] == levels.ERROR and 't_pos[0] is not finite' in events[0][1]
    # Same reason again at once: counted, not re-reported; later it is reported again.
    assert core.on_command(command(t_pos=[float('nan')] * 12), 0.002) == []
    assert core.rejected == 2
    assert 'rejected so far: 3' in core.on_command(command(kp=[-1.0] * 12), 0.003)[0][1]
    assert core.command is before


def test_no_command_for_timeout_means_damping():
    core = make()
    core.on_command(command(), 0.0)
    assert core.step(0.1, DT) == []
    events = core.step(0.1005, DT)
    assert events[0][0] == levels.WARN and 'safe damping' in events[0][1]
    assert not core.drives_enabled
    assert not core.command.kp.any() and core.command.kd.min() > 0 and not core.command.t_trq.any()
    assert 'safe damping' in ' '.join(core.status_strings())
    core.on_command(command(), 0.2)
    assert core.drives_enabled


def test_custom_source_falling_silent_hands_back_without_damping():
    core = make()
    t, events = 0.0, []
    while t < 0.4:
        if t < 0.1:
            events += core.on_command(command('my_ctrl', t_pos=[0.2] * 12), t)
        if t == 0.1:
            assert core.arbiter.active == 'my_ctrl'
            np.testing.assert_array_equal(core.command.t_pos, np.full(12, 0.2))
        events += core.on_command(command('control_node'), t)
        events += core.step(t, DT)
        t = round(t + 0.01, 3)
    texts = [e[1] for e in events]
    assert any('my_ctrl -> control_node' in e for e in texts)
    assert not any('safe damping' in e for e in texts) and core.drives_enabled
    np.testing.assert_array_equal(core.command.t_pos, np.zeros(12))
