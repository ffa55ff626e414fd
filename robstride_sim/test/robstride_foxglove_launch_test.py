# SPDX-License-Identifier: Apache-2.0
"""
robstride_foxglove.launch.py under launch_testing (run by `colcon test`).

The simulated hardware interface and foxglove_live's server start; the server accepts a
WebSocket connection with the subprotocol foxglove.websocket.v1, sends its serverInfo and
advertises the node's topics; both processes exit 0 when launch stops them.
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

TOPICS = {'/robstride/joint_states', '/robstride/robstride_hardware_interface/robstride_state'}


@pytest.mark.launch_test
def generate_test_description():
    # launch tests take no fixtures: each run puts this process and its nodes on a domain of
    # its own (at run time: another launch test module may have moved the environment).
    wt.isolate()
    port = wt.free_port()
    path = os.path.join(get_package_share_directory('robstride_sim'), 'launch',
                        'robstride_foxglove.launch.py')
    return launch.LaunchDescription([
        IncludeLaunchDescription(path, launch_arguments=[('port', str(port))]),
        launch_testing.actions.ReadyToTest(),
    ]), {'port': port}


class TestFoxglove(unittest.TestCase):

    def test_server_advertises_the_node_topics(self, proc_info, port):
        for name in ('robstride_sim_node', 'foxglove_server'):
            proc_info.assertWaitForStartup(name, timeout=30)
        seen = advertised(port, TOPICS, timeout=60)
        assert seen.subprotocol == SUBPROTOCOL, seen
        assert seen.server_info and seen.server_info['name'], seen
        assert TOPICS <= seen.topics, TOPICS - seen.topics


@launch_testing.post_shutdown_test()
class TestStops(unittest.TestCase):

    def test_every_process_exits_cleanly(self, proc_info):
        launch_testing.asserts.assertExitCodes(proc_info)
        assert len(proc_info.process_names()) == 2
