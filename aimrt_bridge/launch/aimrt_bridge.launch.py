# SPDX-License-Identifier: Apache-2.0
"""Start the AimRT http-channel bridge with config/aimrt_bridge.yaml."""
import os

from ament_index_python.packages import get_package_share_directory
from launch import LaunchDescription
from launch_ros.actions import Node


def generate_launch_description():
    params = os.path.join(get_package_share_directory('aimrt_bridge'), 'config',
                          'aimrt_bridge.yaml')
    return LaunchDescription([
        Node(package='aimrt_bridge', executable='aimrt_bridge_node', name='aimrt_bridge',
             parameters=[params], output='screen'),
    ])
