# SPDX-License-Identifier: Apache-2.0
"""
Start the AimRT http-channel bridge with config/aimrt_bridge.yaml.

    ros2 launch aimrt_bridge aimrt_bridge.launch.py [params_file:=...] [http_port:=50080]
(http_port: the port AimRT's http channel backend POSTs to; it overrides the file's).
"""
import os

from ament_index_python.packages import get_package_share_directory
from launch import LaunchDescription
from launch.actions import DeclareLaunchArgument
from launch.substitutions import LaunchConfiguration
from launch_ros.actions import Node


def generate_launch_description():
    params = os.path.join(get_package_share_directory('aimrt_bridge'), 'config',
                          'aimrt_bridge.yaml')
    return LaunchDescription([
        DeclareLaunchArgument('params_file', default_value=params,
                              description='bridge parameters (topics, types, addresses)'),
        DeclareLaunchArgument('http_port', default_value='50080',
                              description="port of the bridge's HTTP server (AimRT POSTs)"),
        Node(package='aimrt_bridge', executable='aimrt_bridge_node', name='aimrt_bridge',
             parameters=[LaunchConfiguration('params_file'),
                         {'http_port': LaunchConfiguration('http_port')}],
             output='screen'),
    ])
