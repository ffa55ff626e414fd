# SPDX-License-Identifier: Apache-2.0
"""
The ROS-level check of the MuJoCo engine.

bridge_node (physics_engine:=mujoco) and control_node over DDS stand the robot up level at
stand_height and execute a pitch command.

The detailed checks (10 s stand, trot, push, damping) run the same cores without ROS, faster
than real time: test_mujoco_physics.py.
"""

import math
import time

from hb50_nodes.control_core import ControlConfig, MODE_STAND
import numpy as np
import pytest
import rosharness as rh

CFG = ControlConfig()


def _rpy(o):
    roll = math.atan2(2.0 * (o.w * o.x + o.y * o.z), 1.0 - 2.0 * (o.x * o.x + o.y * o.y))
    pitch = math.asin(max(-1.0, min(1.0, 2.0 * (o.w * o.y - o.z * o.x))))
    return roll, pitch


@pytest.fixture(scope='module')
def stack(domain_id):
    procs = [rh.start('bridge_node', '-p', 'physics_engine:=mujoco'), rh.start('control_node')]
    probe = rh.Probe()
    try:
        yield probe, procs
    finally:
        probe.close()
        for proc in procs:
            out = rh.stop(proc).output
            assert 'Traceback' not in out, out


def test_mujoco_stand_level_at_stand_height_then_pitch_command(stack):
    from geometry_msgs.msg import Twist
    probe, procs = stack

    def standing():
        state = probe.latest(probe.topics.ROBOT_STATE)
        return state is not None and state.motion_mode[0] == MODE_STAND

    assert rh.wait_for(standing, 60.0), [p.poll() for p in procs]
    time.sleep(1.0)
    t0 = time.monotonic()
    time.sleep(2.0)
    states = probe.since(probe.topics.ROBOT_STATE, t0)
    data = probe.since(probe.topics.BRIDGE_DATA, t0)
    assert states and data
    heights = np.array([s.pose.position.z for s in states])
    assert np.all(np.abs(heights - CFG.stand_height) < 0.01), (heights.min(), heights.max())
    tilt = np.array([_rpy(d.orientation) for d in data])
    assert np.all(np.abs(tilt) < 0.05), np.abs(tilt).max()
    # A pitch command of 0.5 (normalised) tilts the body by 0.5 * tilt_range.
    twist = Twist()
    twist.angular.y = 0.5
    want = 0.5 * CFG.tilt_range

    def pitched():
        probe.twist_pub.publish(twist)
        d = probe.latest(probe.topics.BRIDGE_DATA)
        return d is not None and abs(_rpy(d.orientation)[1] - want) < 0.05
    assert rh.wait_for(pitched, 15.0, period=0.05)
    for _ in range(20):      # held while the command keeps coming
        probe.twist_pub.publish(twist)
        time.sleep(0.05)
    roll, pitch = _rpy(probe.latest(probe.topics.BRIDGE_DATA).orientation)
    assert abs(pitch - want) < 0.05 and abs(roll) < 0.05
    state = probe.latest(probe.topics.ROBOT_STATE)
    assert abs(_rpy(state.pose.orientation)[1] - want) < 0.05
