# SPDX-License-Identifier: Apache-2.0
"""
bridge_node in loop_mode loop: one thread ticks it and serves its subscription (counts).

The loop that spin_nodes runs (runtime.make_loop) is driven here in the test's thread with
the EventsExecutor: every period the executor is spun at least once, every tick publishes its
samples, the JointCommands a peer sends are served (none starved by the ticks) and the 10 Hz
RELIABLE topic carries the sample due at each 100 ms: every 50th, also across skipped ticks.
"""

from hb50_commons.msg import BridgeState, JointCommand
from hb50_nodes import qos
from hb50_nodes.bridge_node import BridgeNode
from hb50_nodes.layout import JOINT_NAMES, NUM_JOINTS
from hb50_nodes.runtime import make_loop
import rclpy
from rclpy.experimental import EventsExecutor
from rclpy.parameter import Parameter

TICKS = 500     # 1 s at 500 Hz


def _command():
    msg = JointCommand()
    msg.source_node = 'control_node'
    msg.name = list(JOINT_NAMES)
    msg.kp = [20.0] * NUM_JOINTS
    msg.ki = [0.0] * NUM_JOINTS
    msg.kd = [1.0] * NUM_JOINTS
    msg.t_pos = [0.0] * NUM_JOINTS
    msg.t_vel = [0.0] * NUM_JOINTS
    msg.t_trq = [0.0] * NUM_JOINTS
    msg.brake = [False] * NUM_JOINTS
    return msg


def _slow_ticks(ticks, every=50):
    """
    Return the ticks (period numbers, rising) that carry a slow sample.

    Slot s ends at period every * s - 1; its sample is the first tick at or after that end,
    if one comes before the next slot's end (a slot wholly inside a stall has none).
    """
    due = []
    for slot_end in range(every - 1, ticks[-1] + 1, every):
        first = next(k for k in ticks if k >= slot_end)
        if first < slot_end + every:
            due.append(first)
    return due


def _periods(deadlines, period=0.002):
    """Return the deadlines (s) as period numbers from the first."""
    return [round((d - deadlines[0]) / period) for d in deadlines]


def test_the_10hz_sample_keeps_its_slot_when_ticks_are_skipped(domain_id):
    context = rclpy.Context()
    rclpy.init(context=context)
    try:
        bridge = BridgeNode(context=context, parameter_overrides=[
            Parameter('physics_engine', value='simple')])
        period = bridge.period
        # 1000 deadlines from a loop that skipped ticks: 3 after the 120th, 130 (a stall
        # longer than the 100 ms slot) after the 400th, every other one from 700 to 800.
        k, ticks = 0, []
        while len(ticks) < 1000:
            ticks.append(k)
            n = len(ticks)
            k += 4 if n == 120 else 131 if n == 400 else 2 if 700 <= n < 800 else 1
        t0 = 5000.0
        due = [k for k in ticks if bridge.slow_sample_due(t0 + k * period)]
        assert bridge._published_ticks == len(ticks)
        # One slow sample per 50-period slot the ticks reach; none for the slots wholly
        # inside the stall.
        assert due == _slow_ticks(ticks)
        # The stall's end carries the sample of the slot it ends in, the next is on time.
        assert [k for k in due if 399 < k <= 549] == [533, 549]
        assert due[:2] == [49, 99]     # before any skip: every 50th sample
        gaps = [b - a for a, b in zip(due, due[1:])]
        assert max(gaps) <= 50 + 131 and min(gaps) >= 1
    finally:
        rclpy.try_shutdown(context=context)


def test_loop_serves_the_subscription_and_the_10hz_topic_every_period(domain_id):
    context = rclpy.Context()
    rclpy.init(context=context)
    executor = EventsExecutor(context=context)
    try:
        bridge = BridgeNode(context=context, parameter_overrides=[
            Parameter('physics_engine', value='simple')])
        peer = rclpy.create_node('loop_node_peer', namespace='/hb50', context=context)
        slow = []
        peer.create_subscription(BridgeState, 'bridge_state_10hz', slow.append, qos.RELIABLE)
        pub = peer.create_publisher(JointCommand, 'joint_command', qos.MAB_RT)
        for node in (bridge, peer):
            executor.add_node(node)
        loop = make_loop([bridge])
        assert loop is not None and loop.nodes == [bridge]
        command = _command()
        sent = {'n': 0}
        bridge_tick = loop.tick
        deadlines = []

        def tick(now):
            deadlines.append(now)
            bridge_tick(now)
            command.header.stamp.nanosec = sent['n']    # a new command every period
            pub.publish(command)
            sent['n'] += 1
        loop.tick = tick
        loop.run(executor, lambda: loop.ticks < TICKS)
        # Drain what is still on the way (the ticks have stopped), bounded.
        for _ in range(200):
            if len(slow) == len(_slow_ticks(_periods(deadlines))) \
                    and bridge.core.applied + bridge.core.rejected >= sent['n'] - 1:
                break
            executor.spin_once(timeout_sec=0.01)
        assert loop.ticks == TICKS and loop.errors == 0
        # The executor ran between every two ticks: no period without a spin.
        assert loop.spins >= loop.ticks
        # Every tick published its sample; the slow topic got one per 100 ms slot of the
        # ticks' deadlines: exactly every 50th sample when the loop skipped none.
        assert bridge._published_ticks == TICKS
        assert len(slow) == len(_slow_ticks(_periods(deadlines)))
        if loop.missed_slots == 0:
            assert len(slow) == TICKS // 50
        # The commands were served by the same thread while it ticked: all valid, applied,
        # none starved (best effort within one host: at most a few lost at the start).
        assert bridge.core.rejected == 0
        assert bridge.core.applied >= sent['n'] - 10
        assert bridge.core.drives_enabled
    finally:
        executor.shutdown(timeout_sec=1.0)
        rclpy.try_shutdown(context=context)
