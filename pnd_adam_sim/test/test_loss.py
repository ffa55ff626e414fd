# SPDX-License-Identifier: Apache-2.0
"""
The PND path under packet loss, injected by Cyclone DDS itself in the simulator.

Cyclone's test hook Internal/Test/XmitLossiness drops that many of every thousand packets
the simulator sends (state samples, acknowledgements, discovery alike). With 20 % loss the
best-effort lowstate stream must degrade in proportion (about 80 % of the ticks arrive,
with no long holes: nothing stalls), reliable commands must still get through (resent),
and the simulator must keep running and exit cleanly.
"""

import math
import signal
import time

from cyclonedds.core import Policy, Qos
from cyclonedds.domain import DomainParticipant
from cyclonedds.pub import DataWriter
from cyclonedds.sub import DataReader
from cyclonedds.topic import Topic

from pnd_adam_description.joints import NUM_JOINTS
from pnd_adam_sim.vendor_idl import LowCmd_, LowState_, MotorCmd_, TOPIC_LOWCMD, TOPIC_LOWSTATE
from workspace_testing.adam_sim import cyclone_localhost_uri, localhost_env, SimProcess

LOSS_PER_THOUSAND = 200
RATE_HZ = 500
WINDOW_S = 3.0
LOSS_CONFIG = ('<CycloneDDS><Domain Id="any"><Internal><Test>'
               f'<XmitLossiness>{LOSS_PER_THOUSAND}</XmitLossiness>'
               '</Test></Internal></Domain></CycloneDDS>')


def test_lowstate_degrades_in_proportion_and_commands_get_through(domain_id, monkeypatch):
    # This process's own participant: loopback, no loss (restored after the test).
    monkeypatch.setenv('CYCLONEDDS_URI', cyclone_localhost_uri())
    env = localhost_env(domain_id)
    # Cyclone merges a list of configurations: loopback settings, then the loss.
    env['CYCLONEDDS_URI'] = cyclone_localhost_uri() + ',' + LOSS_CONFIG
    sim = SimProcess(domain_id, rate_hz=RATE_HZ, env=env)
    try:
        assert sim.wait_for('running:', 20), sim.lines
        dp = DomainParticipant(domain_id)
        # Best effort, like a ROS node's sensor-data subscription: what is lost stays lost.
        state = DataReader(dp, Topic(dp, TOPIC_LOWSTATE, LowState_),
                           qos=Qos(Policy.Reliability.BestEffort,
                                   Policy.History.KeepLast(4000)))
        cmd = DataWriter(dp, Topic(dp, TOPIC_LOWCMD, LowCmd_))
        end = time.monotonic() + 20
        while not state.take(N=10) and time.monotonic() < end:
            time.sleep(0.05)
        state.take(N=4000)

        time.sleep(WINDOW_S)
        ticks = sorted({s.tick for s in state.take(N=4000)})
        assert len(ticks) > 100, sim.lines[-5:]
        span = ticks[-1] - ticks[0] + 1
        received = len(ticks) / span
        expected = 1.0 - LOSS_PER_THOUSAND / 1000.0
        # Binomial spread over ~1500 ticks is ~1 %: 8 % either side is a wide margin, and
        # still tells 20 % loss from none or from a stream that stalls.
        assert abs(received - expected) < 0.08, (received, span)
        longest_hole = max(b - a - 1 for a, b in zip(ticks, ticks[1:]))
        # 20 % loss makes 10 ticks lost in a row a 1e-7 event: a longer hole is a stall.
        assert longest_hole < 10, longest_hole

        # A reliable command arrives despite the lost packets (resent until acknowledged).
        arm = LowCmd_(mode_pr=0, motor_cmd=[
            MotorCmd_(mode=1 if i >= 5 else 0, q=-0.2 if i >= 5 else 0.0, kp=100.0, kd=5.0)
            for i in range(NUM_JOINTS)])
        cmd.write(arm)
        end = time.monotonic() + 10
        moved = False
        while not moved and time.monotonic() < end:
            time.sleep(0.05)
            got = state.take(N=4000)
            moved = bool(got) and all(math.isclose(m.q, -0.2, abs_tol=0.02)
                                      for m in got[-1].motor_state[5:])
        assert moved, sim.lines[-5:]
        assert sim.proc.poll() is None
        del dp
    finally:
        result = sim.stop()
    assert (result.returncode, result.signal) == (0, signal.SIGTERM), sim.lines[-5:]
    assert not any('Traceback' in line for line in sim.lines)
    assert sim.counters()['lowcmd_applied'] >= 1
