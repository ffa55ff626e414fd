# SPDX-License-Identifier: Apache-2.0
"""
robstride_sim.launch.py under launch_testing (run by `colcon test`).

The simulated robstride_hardware_interface starts in the namespace given (the default and
another one), its joint_states and robstride_state arrive there, and it exits 0 when launch
stops it.
"""

import os
import unittest

from ament_index_python.packages import get_package_share_directory
import launch
from launch.actions import IncludeLaunchDescription
import launch_testing
import launch_testing.actions
import launch_testing.asserts
from launch_testing_ros import WaitForTopics
import pytest
from robstride_interfaces.msg import RobstrideState
from sensor_msgs.msg import JointState
import workspace_testing as wt


@pytest.mark.launch_test
@launch_testing.parametrize('namespace', ['/robstride', '/robot2'])
def generate_test_description(namespace):
    # launch tests take no fixtures: each run puts this process and its nodes on a domain of
    # its own (at run time: another launch test module may have moved the environment).
    wt.isolate()
    path = os.path.join(get_package_share_directory('robstride_sim'), 'launch',
                        'robstride_sim.launch.py')
    return launch.LaunchDescription([
        IncludeLaunchDescription(path, launch_arguments=[('namespace', namespace)]),
        launch_testing.actions.ReadyToTest(),
    ])


class TestNodeRuns(unittest.TestCase):

    def test_state_topics_arrive_in_the_namespace(self, proc_info, namespace):
        proc_info.assertWaitForStartup('robstride_sim_node', timeout=30)
        state = f'{namespace}/robstride_hardware_interface/robstride_state'
        topics = [(f'{namespace}/joint_states', JointState), (state, RobstrideState)]
        with WaitForTopics(topics, timeout=60) as waiter:
            assert waiter.topics_not_received() == set()
            (sample, *_) = waiter.received_messages(state)
            assert list(sample.id) and sample.comm_state == RobstrideState.COMM_STATE_OK


@launch_testing.post_shutdown_test()
class TestNodeStops(unittest.TestCase):

    def test_node_exits_cleanly(self, proc_info):
        launch_testing.asserts.assertExitCodes(proc_info)
        assert len(proc_info.process_names()) == 1
