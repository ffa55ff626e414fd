# SPDX-License-Identifier: Apache-2.0
"""
aimrt_foxglove.launch.py under launch_testing (run by `colcon test`).

The simulator, aimrt_bridge and foxglove_live's server start (the simulator and the bridge
on free ports, through the launch arguments); the simulator's joint states reach ROS 2
through the bridge; the server accepts a WebSocket connection with the subprotocol
foxglove.websocket.v1, sends its serverInfo and advertises the bridge's topics; every
process exits 0 when launch stops it.
"""

import json
import os
import tempfile
import unittest

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
from workspace_testing.foxglove import advertised, SUBPROTOCOL

TOPICS = {'/aimrt/joint_states', '/aimrt/imu', '/aimrt/touch'}


@pytest.mark.launch_test
def generate_test_description():
    # launch tests take no fixtures: each run puts this process and its nodes on a domain of
    # its own (at run time: another launch test module may have moved the environment).
    wt.isolate()
    port, http_port, sim_port = wt.free_port(), wt.free_port(), wt.free_port()
    folder = tempfile.mkdtemp(prefix='aimrt_foxglove_launch_test_')
    sim_config = os.path.join(folder, 'sim.yaml')
    bridge_params = os.path.join(folder, 'bridge.yaml')
    with open(sim_config, 'w') as f:       # JSON is YAML
        json.dump({'listen_port': sim_port, 'state_addresses': [f'127.0.0.1:{http_port}']}, f)
    with open(bridge_params, 'w') as f:
        json.dump({'aimrt_bridge': {'ros__parameters': {
            'command_addresses': [f'127.0.0.1:{sim_port}']}}}, f)
    path = os.path.join(get_package_share_directory('aimrt_mujoco_sim'), 'launch',
                        'aimrt_foxglove.launch.py')
    return launch.LaunchDescription([
        IncludeLaunchDescription(path, launch_arguments=[
            ('sim_config', sim_config), ('bridge_params', bridge_params),
            ('http_port', str(http_port)), ('port', str(port))]),
        launch_testing.actions.ReadyToTest(),
    ]), {'port': port}


class TestFoxglove(unittest.TestCase):

    def test_states_flow_and_server_advertises_them(self, proc_info, port):
        for name in ('aimrt_mujoco_sim', 'aimrt_bridge_node', 'foxglove_server'):
            proc_info.assertWaitForStartup(name, timeout=30)
        with WaitForTopics([('/aimrt/joint_states', JointState)], timeout=60) as waiter:
            assert len(waiter.received_messages('/aimrt/joint_states')[-1].name) > 0
        seen = advertised(port, TOPICS, timeout=60)
        assert seen.subprotocol == SUBPROTOCOL, seen
        assert seen.server_info and seen.server_info['name'], seen
        assert TOPICS <= seen.topics, TOPICS - seen.topics


@launch_testing.post_shutdown_test()
class TestStops(unittest.TestCase):

    def test_every_process_exits_cleanly(self, proc_info):
        launch_testing.asserts.assertExitCodes(proc_info)
        assert len(proc_info.process_names()) == 3
