# Copyright 2025 The horus_msg_py authors
# SPDX-License-Identifier: Apache-2.0
"""Start the HORUS <-> ROS 2 bridge with config/horus_bridge.yaml."""

import os

from ament_index_python.packages import get_package_share_directory
from launch import LaunchDescription
from launch.actions import DeclareLaunchArgument
from launch.substitutions import LaunchConfiguration
from launch_ros.actions import Node


def generate_launch_description():
    default_params = os.path.join(get_package_share_directory('horus_bridge'),
                                  'config', 'horus_bridge.yaml')
    return LaunchDescription([
        DeclareLaunchArgument('params_file', default_value=default_params,
                              description='bridge parameters (topic mappings)'),
        Node(package='horus_bridge', executable='horus_bridge', name='horus_bridge',
             output='screen', parameters=[LaunchConfiguration('params_file')]),
    ])
