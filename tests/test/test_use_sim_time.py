# SPDX-License-Identifier: Apache-2.0
"""
use_sim_time:=true: the stamps a node gives its messages follow /clock.

robstride_sim_node (joint_states and robstride_state, stamped from the node clock) started
with `-p use_sim_time:=true` while this test publishes /clock from 1000 s on: every stamp
lies between the first and the last /clock it published, and it keeps cycling (steady
time) while /clock stands still. The two bridges (aimrt_bridge,
horus_bridge) are checked in their own packages (their stamps are the ones the source
message carries). adam_arm_pose (pnd_adam_examples) publishes no stamped message.
"""

from rclpy.qos import qos_profile_sensor_data
from rclpy.time import Time
from robstride_interfaces.msg import RobstrideState
from rosgraph_msgs.msg import Clock
from sensor_msgs.msg import JointState
import workspace_testing as wt

WAIT = 60.0         # upper bound for start-up and discovery on a loaded machine
SIM_START_NS = 1000 * 10**9
SIM_STEP_NS = 20 * 10**6    # /clock advances 20 ms per publication


def _ns(stamp):
    return stamp.sec * 10**9 + stamp.nanosec


def test_robstride_sim_node_stamps_follow_clock(ros_node):
    import rclpy
    clock = ros_node.create_publisher(Clock, '/clock', 10)
    joint_states, states = [], []
    subs = [ros_node.create_subscription(JointState, '/robstride/joint_states',
                                         joint_states.append, qos_profile_sensor_data),
            ros_node.create_subscription(
                RobstrideState, '/robstride/robstride_hardware_interface/robstride_state',
                states.append, qos_profile_sensor_data)]
    sim = [SIM_START_NS]

    def tick():
        clock.publish(Clock(clock=Time(nanoseconds=sim[0]).to_msg()))
        sim[0] += SIM_STEP_NS
    tick()
    proc = wt.start([wt.executable('robstride_sim', 'robstride_sim_node'), '--ros-args',
                     '-p', 'use_sim_time:=true', '-p', 'update_rate_hz:=50.0'])
    try:
        def enough():
            assert proc.poll() is None, proc.output()
            tick()
            rclpy.spin_once(ros_node, timeout_sec=0.02)
            return len(joint_states) >= 5 and len(states) >= 5
        assert wt.wait_for(enough, WAIT, period=0.0), proc.output()
        last = sim[0] - SIM_STEP_NS     # the newest /clock published
        # /clock stands still (a paused simulation): the driver's cycle runs on steady time
        # and keeps reading and writing the bus; its stamps stay at the last /clock.
        cycled = len(states) + 10

        def still_cycling():
            assert proc.poll() is None, proc.output()
            rclpy.spin_once(ros_node, timeout_sec=0.02)
            return len(states) >= cycled
        assert wt.wait_for(still_cycling, WAIT, period=0.0), proc.output()
    finally:
        result = wt.stop(proc)
        for sub in subs:
            ros_node.destroy_subscription(sub)
        ros_node.destroy_publisher(clock)
    assert result.returncode == 0, result.output
    for name, msgs in (('joint_states', joint_states), ('robstride_state', states)):
        stamps = [_ns(m.header.stamp) for m in msgs]
        assert all(SIM_START_NS <= s <= last for s in stamps), (name, stamps, last)
        assert stamps == sorted(stamps), (name, stamps)
