# SPDX-License-Identifier: Apache-2.0
"""
bridge_node in loop_mode loop: one thread ticks it and serves its subscription (counts).

The loop that spin_nodes runs (runtime.make_loop) is driven here in the test's thread with
the EventsExecutor: every period the executor is spun at least once, every tick publishes its
samples, the JointCommands a peer sends are served (none starved by the ticks) and the 10 Hz
RELIABLE topic carries exactly every 50th sample.
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

        def tick(now):
            bridge_tick(now)
            command.header.stamp.nanosec = sent['n']    # a new command every period
            pub.publish(command)
            sent['n'] += 1
        loop.tick = tick
        loop.run(executor, lambda: loop.ticks < TICKS)
        # Drain what is still on the way (the ticks have stopped), bounded.
        for _ in range(200):
            if len(slow) == bridge._published_ticks // 50 \
                    and bridge.core.applied + bridge.core.rejected >= sent['n'] - 1:
                break
            executor.spin_once(timeout_sec=0.01)
        assert loop.ticks == TICKS and loop.errors == 0
        # The executor ran between every two ticks: no period without a spin.
        assert loop.spins >= loop.ticks
        # Every tick published its sample; the slow topic got exactly every 50th.
        assert bridge._published_ticks == TICKS
        assert len(slow) == TICKS // 50
        # The commands were served by the same thread while it ticked: all valid, applied,
        # none starved (best effort within one host: at most a few lost at the start).
        assert bridge.core.rejected == 0
        assert bridge.core.applied >= sent['n'] - 10
        assert bridge.core.drives_enabled
    finally:
        executor.shutdown(timeout_sec=1.0)
        rclpy.try_shutdown(context=context)
