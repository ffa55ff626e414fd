# SPDX-License-Identifier: Apache-2.0
"""
use_sim_time:=true: the nodes stamp with /clock's time.

hb50_stack (all three nodes in one process) runs with `-p use_sim_time:=true` while this test
publishes rosgraph_msgs/Clock from 1000 s on: the header stamps of bridge_data, robot_state
and the heartbeats are /clock's time, not wall time. The loops, heartbeats and heartbeat
checks keep real time: with /clock paused the nodes go on publishing (stamps frozen at the
last /clock time) and the monitor reports no node STALE.
"""

import time

from hb50_nodes import levels, topics
import rosharness as rh

SIM_START = 1000.0      # s of simulated time at the first /clock message


def _stamp(msg):
    return msg.header.stamp.sec + msg.header.stamp.nanosec * 1e-9


def test_stamps_follow_clock_and_the_nodes_keep_real_time(domain_id):
    from rosgraph_msgs.msg import Clock
    proc = rh.start('hb50_stack', '-p', 'use_sim_time:=true')
    probe = rh.Probe(topics=(topics.BRIDGE_DATA, topics.ROBOT_STATE, topics.HEARTBEAT,
                             topics.STATUS))
    clock_pub = probe.node.create_publisher(Clock, '/clock', 10)
    t_start = time.monotonic()
    sim = [SIM_START]

    def publish_clock():
        sim[0] = SIM_START + (time.monotonic() - t_start)
        msg = Clock()
        msg.clock.sec, nanosec = divmod(int(sim[0] * 1e9), 1_000_000_000)
        msg.clock.nanosec = nanosec
        clock_pub.publish(msg)

    def clocked(topic):
        msg = probe.latest(topic)
        return msg is not None and _stamp(msg) >= SIM_START

    def run_clock(seconds, until=lambda: False):
        end = time.monotonic() + seconds
        while time.monotonic() < end and not until():
            publish_clock()
            time.sleep(0.01)
        return until()

    try:
        assert run_clock(40.0, lambda: clocked(topics.BRIDGE_DATA) and clocked(
            topics.ROBOT_STATE)), (probe.latest(topics.BRIDGE_DATA), proc.output()[-3000:])
        t1 = time.monotonic()
        run_clock(1.0)
        last_sim = sim[0]
        for topic in (topics.BRIDGE_DATA, topics.ROBOT_STATE, topics.HEARTBEAT):
            stamps = [_stamp(m) for m in probe.since(topic, t1)]
            assert stamps, topic
            # /clock's time (never wall time, ~1.8e9 s) and not ahead of the last /clock.
            assert all(SIM_START <= s <= last_sim + 1e-6 for s in stamps), (topic, stamps[:5])
        # /clock paused: the loops and heartbeats go on in real time, stamps frozen.
        t2 = time.monotonic()
        time.sleep(1.5)
        beats = probe.since(topics.HEARTBEAT, t2)
        for name in ('bridge_node', 'control_node', 'heartbeat_monitor'):
            assert sum(m.reporting_node == name for m in beats) >= 2, name
        frozen = {_stamp(m) for m in probe.since(topics.BRIDGE_DATA, t2 + 0.5)}
        assert len(frozen) == 1 and SIM_START <= frozen.pop() <= last_sim + 1e-6
        assert not probe.statuses(t1, levels.STALE)
    finally:
        probe.close()
        code, out, _ = rh.stop(proc)
    assert code == 0 and 'Traceback' not in out, out[-3000:]
