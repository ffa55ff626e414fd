# SPDX-License-Identifier: Apache-2.0
"""
hb50_nodes' hb50_sim.launch.py under launch_testing.

Its three nodes start, bridge_data and every node's heartbeat arrive (WaitForTopics), in the
default and in another namespace, and every node exits 0 when launch stops it.
"""

import os
import time
import unittest

from ament_index_python.packages import get_package_share_directory
from hb50_commons.msg import BridgeData, Status
import launch
from launch.actions import IncludeLaunchDescription
import launch_testing
import launch_testing.actions
import launch_testing.asserts
from launch_testing_ros import WaitForTopics
import pytest

NODES = ('bridge_node', 'control_node', 'heartbeat_monitor')


@pytest.mark.launch_test
@launch_testing.parametrize('namespace', ['/hb50', '/robot2'])
def generate_test_description(namespace):
    path = os.path.join(get_package_share_directory('hb50_nodes'), 'launch',
                        'hb50_sim.launch.py')
    return launch.LaunchDescription([
        IncludeLaunchDescription(path, launch_arguments=[('namespace', namespace)]),
        launch_testing.actions.ReadyToTest(),
    ])


class TestStackRuns(unittest.TestCase):

    def test_bridge_data_and_every_heartbeat(self, proc_info, namespace):
        for name in NODES:
            proc_info.assertWaitForStartup(name, timeout=30)
        topics = [(f'{namespace}/bridge_data', BridgeData), (f'{namespace}/heartbeat', Status)]
        waiter = WaitForTopics(topics, timeout=60, messages_received_buffer_length=50)
        try:
            assert waiter.wait(), waiter.topics_not_received()
            beats = set()
            for _ in range(300):
                beats |= {m.reporting_node for m in
                          waiter.received_messages(f'{namespace}/heartbeat')}
                if all(any(n in b for b in beats) for n in NODES):
                    break
                time.sleep(0.1)
            assert all(any(n in b for b in beats) for n in NODES), beats
        finally:
            waiter.shutdown()


@launch_testing.post_shutdown_test()
class TestStackStops(unittest.TestCase):

    def test_every_node_exits_cleanly(self, proc_info):
        launch_testing.asserts.assertExitCodes(proc_info)
        assert len(proc_info.process_names()) == 3
