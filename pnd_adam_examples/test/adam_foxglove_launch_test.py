# SPDX-License-Identifier: Apache-2.0
"""
adam_foxglove.launch.py under launch_testing (run by `colcon test`).

The simulator, adam_state_publisher and foxglove_live's server start on this test's
domain; the server accepts a WebSocket connection with the subprotocol
foxglove.websocket.v1, sends its serverInfo and advertises lowstate (from the simulator's
Cyclone DDS) and the state publisher's topics; every process exits 0 when launch stops it.
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
from workspace_testing.adam_sim import cyclone_localhost_uri
from workspace_testing.foxglove import advertised, SUBPROTOCOL

TOPICS = {'/lowstate', '/joint_states', '/tf', '/robot_description'}


@pytest.mark.launch_test
def generate_test_description():
    # launch tests take no fixtures: each run puts this process and its nodes on a domain of
    # its own (at run time: another launch test module may have moved the environment).
    # The simulator's Cyclone DDS stays on the loopback interface.
    domain = wt.isolate()
    os.environ['CYCLONEDDS_URI'] = cyclone_localhost_uri()
    port = wt.free_port()
    path = os.path.join(get_package_share_directory('pnd_adam_examples'), 'launch',
                        'adam_foxglove.launch.py')
    return launch.LaunchDescription([
        IncludeLaunchDescription(path, launch_arguments=[('domain_id', str(domain)),
                                                         ('port', str(port))]),
        launch_testing.actions.ReadyToTest(),
    ]), {'port': port}


class TestFoxglove(unittest.TestCase):

    def test_server_advertises_the_robot_topics(self, proc_info, port):
        for name in ('adam_sim', 'adam_state_publisher', 'foxglove_server'):
            proc_info.assertWaitForStartup(name, timeout=30)
        seen = advertised(port, TOPICS, timeout=60)
        assert seen.subprotocol == SUBPROTOCOL, seen
        assert seen.server_info and seen.server_info['name'], seen
        assert TOPICS <= seen.topics, TOPICS - seen.topics


@launch_testing.post_shutdown_test()
class TestStops(unittest.TestCase):

    def test_every_process_exits_cleanly(self, proc_info):
        launch_testing.asserts.assertExitCodes(proc_info)
        assert len(proc_info.process_names()) == 3
