# SPDX-License-Identifier: Apache-2.0
"""
aimrt_bridge.launch.py under launch_testing (run by `colcon test`).

The bridge starts with the shipped parameters (only its HTTP port moved, with the launch
argument `http_port`), a JointState an AimRT publisher POSTs (aimrt_peer, AimRT's http
channel protocol) arrives on /aimrt/joint_states, and it exits 0 when launch stops it.
"""

import os
import time
import unittest

import aimrt_peer as peer
from ament_index_python.packages import get_package_share_directory
import launch
from launch.actions import IncludeLaunchDescription
import launch_testing
import launch_testing.actions
import launch_testing.asserts
from launch_testing_ros import WaitForTopics
import pytest
from sensor_msgs.msg import JointState
import workspace_testing as wt

STATE_TYPE = 'pb:aimrt.protocols.sensor.JointState'


def joint_state_pb():
    joints = b''.join(peer.field_bytes(2, peer.field_bytes(1, f'j{i}') +
                                       peer.field_double(2, 0.5 * i)) for i in range(3))
    return peer.field_bytes(1, peer.header(1_700_000_000_000_000_123, 'base')) + joints


@pytest.mark.launch_test
def generate_test_description():
    # launch tests take no fixtures: each run puts this process and its nodes on a domain of
    # its own (at run time: another launch test module may have moved the environment).
    wt.isolate()
    port = wt.free_port()
    path = os.path.join(get_package_share_directory('aimrt_bridge'), 'launch',
                        'aimrt_bridge.launch.py')
    return launch.LaunchDescription([
        IncludeLaunchDescription(path, launch_arguments=[('http_port', str(port))]),
        launch_testing.actions.ReadyToTest(),
    ]), {'port': port}


class TestBridgeRuns(unittest.TestCase):

    def test_posted_joint_state_arrives(self, proc_info, port):
        proc_info.assertWaitForStartup('aimrt_bridge_node', timeout=30)
        assert wt.wait_for(lambda: wt.accepting(port), 30), port
        waiter = WaitForTopics([('/aimrt/joint_states', JointState)], timeout=0.2)
        try:
            deadline = time.monotonic() + 30
            received = False
            while not received and time.monotonic() < deadline:
                status = peer.post(port, 'joint_state', STATE_TYPE, joint_state_pb(),
                                   'application/protobuf')
                assert status == (200, b''), status
                received = waiter.wait()
            assert received, 'no JointState on /aimrt/joint_states'
            msg = waiter.received_messages('/aimrt/joint_states')[-1]
            assert list(msg.name) == ['j0', 'j1', 'j2'] and list(msg.position) == [0, 0.5, 1]
        finally:
            waiter.shutdown()


@launch_testing.post_shutdown_test()
class TestBridgeStops(unittest.TestCase):

    def test_bridge_exits_cleanly(self, proc_info):
        launch_testing.asserts.assertExitCodes(proc_info)
        assert len(proc_info.process_names()) == 1
