# SPDX-License-Identifier: Apache-2.0
"""
The simulated RobStride hardware interface and the Foxglove server (foxglove_live).

Usage: ros2 launch robstride_sim robstride_foxglove.launch.py [namespace:=/robstride]
[params_file:=...] [port:=8765] [address:=127.0.0.1], then in Foxglove: Open connection >
Foxglove WebSocket > ws://localhost:8765. The node publishes joint_states itself (there is no
separate state publisher and no URDF for RobStride motors).
"""

import os

from ament_index_python.packages import get_package_share_directory
from launch import LaunchDescription
from launch.actions import DeclareLaunchArgument, IncludeLaunchDescription
from launch.substitutions import LaunchConfiguration
from launch_ros.actions import Node


def generate_launch_description():
    share = get_package_share_directory('robstride_sim')
    return LaunchDescription([
        DeclareLaunchArgument('namespace', default_value='/robstride'),
        DeclareLaunchArgument('params_file',
                              default_value=os.path.join(share, 'config', 'robstride_sim.yaml')),
        DeclareLaunchArgument('port', default_value='8765',
                              description='WebSocket port of the Foxglove server'),
        DeclareLaunchArgument('address', default_value='127.0.0.1',
                              description='address the Foxglove server binds (0.0.0.0: all)'),
        IncludeLaunchDescription(
            os.path.join(share, 'launch', 'robstride_sim.launch.py'),
            launch_arguments=[('namespace', LaunchConfiguration('namespace')),
                              ('params_file', LaunchConfiguration('params_file'))]),
        Node(package='foxglove_live', executable='foxglove_server', name='foxglove_server',
             output='screen', parameters=[{'port': LaunchConfiguration('port'),
                                           'address': LaunchConfiguration('address')}]),
    ])
