# SPDX-License-Identifier: Apache-2.0
"""
horus_bridge.launch.py under launch_testing (run by `colcon test`).

The bridge starts (its launch argument params_file: the shipped routes' ROS 2 topics fed
from a HORUS publisher of the test, horus_launch.py); every route's messages arrive on ROS 2;
the bridge exits 0 when launch stops it.
"""

import os
import unittest

from ament_index_python.packages import get_package_share_directory
import horus_launch
from horus_msg_py import shm
import launch
from launch.actions import ExecuteProcess, IncludeLaunchDescription
import launch_testing
import launch_testing.actions
import launch_testing.asserts
from launch_testing_ros import WaitForTopics
from nav_msgs.msg import Odometry
import pytest
from sensor_msgs.msg import BatteryState, Imu, LaserScan
import workspace_testing as wt

TYPES = {'/scan': LaserScan, '/imu/data': Imu, '/odom': Odometry,
         '/battery_state': BatteryState}


@pytest.mark.launch_test
def generate_test_description():
    # launch tests take no fixtures: each run puts this process and its nodes on a domain of
    # its own (at run time: another launch test module may have moved the environment).
    wt.isolate()
    namespace, publisher, params = horus_launch.setup()
    path = os.path.join(get_package_share_directory('horus_bridge'), 'launch',
                        'horus_bridge.launch.py')
    return launch.LaunchDescription([
        ExecuteProcess(cmd=publisher, name='horus_publisher', output='screen'),
        IncludeLaunchDescription(path, launch_arguments=[('params_file', params)]),
        launch_testing.actions.ReadyToTest(),
    ]), {'namespace': namespace}


class TestBridgeRuns(unittest.TestCase):

    def test_every_route_arrives(self, proc_info):
        proc_info.assertWaitForStartup('horus_bridge', timeout=30)
        with WaitForTopics(list(TYPES.items()), timeout=60) as waiter:
            scan = waiter.received_messages('/scan')[-1]
            assert len(scan.ranges) == 360 and scan.header.frame_id == 'laser'


@launch_testing.post_shutdown_test()
class TestBridgeStops(unittest.TestCase):

    def test_every_process_exits_cleanly(self, proc_info, namespace):
        try:
            launch_testing.asserts.assertExitCodes(proc_info)
            assert len(proc_info.process_names()) == 2
        finally:
            shm.remove_namespace(namespace)
