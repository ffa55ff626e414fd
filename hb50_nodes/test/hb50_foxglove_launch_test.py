# SPDX-License-Identifier: Apache-2.0
"""
hb50_foxglove.launch.py under launch_testing (run by `colcon test`).

The stack, its state publisher and foxglove_live's server start; the server accepts a
WebSocket connection with the subprotocol foxglove.websocket.v1, sends its serverInfo and
advertises the stack's topics (those of the state publisher too); every process exits 0
when launch stops it.
"""

import os
import unittest

from ament_index_python.packages import get_package_share_directory
import launch
from launch.actions import IncludeLaunchDescription
import launch_testing
import launch_testing.actions
import launch_testing.asserts
import pytest
import workspace_testing as wt
from workspace_testing.foxglove import advertised, SUBPROTOCOL

NAMESPACE = '/robot2'
TOPICS = {'/tf', '/robot_description'} | {
    f'{NAMESPACE}/{t}' for t in ('bridge_data', 'heartbeat', 'robot_state', 'joint_states',
                                 'robot_description')}


@pytest.mark.launch_test
def generate_test_description():
    # launch tests take no fixtures: each run puts this process and its nodes on a domain of
    # its own (at run time: another launch test module may have moved the environment).
    wt.isolate()
    port = wt.free_port()
    path = os.path.join(get_package_share_directory('hb50_nodes'), 'launch',
                        'hb50_foxglove.launch.py')
    return launch.LaunchDescription([
        IncludeLaunchDescription(path, launch_arguments=[('namespace', NAMESPACE),
                                                         ('port', str(port))]),
        launch_testing.actions.ReadyToTest(),
    ]), {'port': port}


class TestFoxglove(unittest.TestCase):

    def test_server_advertises_the_stack(self, proc_info, port):
        for name in ('bridge_node', 'control_node', 'heartbeat_monitor',
                     'state_publisher_node', 'foxglove_server'):
            proc_info.assertWaitForStartup(name, timeout=30)
        seen = advertised(port, TOPICS, timeout=60)
        assert seen.subprotocol == SUBPROTOCOL, seen
        assert seen.server_info and seen.server_info['name'], seen
        assert TOPICS <= seen.topics, TOPICS - seen.topics


@launch_testing.post_shutdown_test()
class TestStops(unittest.TestCase):

    def test_every_process_exits_cleanly(self, proc_info):
        launch_testing.asserts.assertExitCodes(proc_info)
        assert len(proc_info.process_names()) == 5
