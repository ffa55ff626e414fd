# SPDX-License-Identifier: Apache-2.0
"""
arm_pose.launch.py under launch_testing (run by `colcon test`), against the simulator.

pnd_adam_sim's adam_sim.launch.py and arm_pose.launch.py on this test's domain: the example
node reads the simulator's lowstate through the Fast DDS interop profile the launch file
sets, commands the arms and reports the pose reached; both processes exit 0 when launch
stops them.
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


@pytest.mark.launch_test
def generate_test_description():
    # launch tests take no fixtures: each run puts this process and its nodes on a domain of
    # its own (at run time: another launch test module may have moved the environment).
    # The simulator's Cyclone DDS stays on the loopback interface.
    domain = wt.isolate()
    os.environ['CYCLONEDDS_URI'] = cyclone_localhost_uri()
    sim = os.path.join(get_package_share_directory('pnd_adam_sim'), 'launch',
                       'adam_sim.launch.py')
    arm_pose = os.path.join(get_package_share_directory('pnd_adam_examples'), 'launch',
                            'arm_pose.launch.py')
    return launch.LaunchDescription([
        IncludeLaunchDescription(sim, launch_arguments=[('domain_id', str(domain))]),
        IncludeLaunchDescription(arm_pose),
        launch_testing.actions.ReadyToTest(),
    ])


class TestArmPose(unittest.TestCase):

    def test_pose_reached(self, proc_info, proc_output):
        proc_info.assertWaitForStartup('adam_arm_pose', timeout=30)
        proc_output.assertWaitFor('waiting for lowstate', process='adam_arm_pose', timeout=30)
        proc_output.assertWaitFor('pose reached, max joint error', process='adam_arm_pose',
                                  timeout=60)


@launch_testing.post_shutdown_test()
class TestStops(unittest.TestCase):

    def test_every_process_exits_cleanly(self, proc_info):
        launch_testing.asserts.assertExitCodes(proc_info)
        assert len(proc_info.process_names()) == 2
