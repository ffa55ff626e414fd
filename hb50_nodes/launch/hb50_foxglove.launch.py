# SPDX-License-Identifier: Apache-2.0
"""
The simulated HB50 stack, its state publisher and the Foxglove server (foxglove_live).

Usage: ros2 launch hb50_nodes hb50_foxglove.launch.py [namespace:=/hb50] [port:=8765]
[address:=127.0.0.1], then in Foxglove: Open connection > Foxglove WebSocket >
ws://localhost:8765. The state publisher also puts the URDF on /robot_description (as
`FOXGLOVE=1 make run` does), the one topic Foxglove Studio 1.x's 3D panel reads it from.
"""

import os

from ament_index_python.packages import get_package_share_directory
from launch import LaunchDescription
from launch.actions import DeclareLaunchArgument, IncludeLaunchDescription
from launch.substitutions import LaunchConfiguration
from launch_ros.actions import Node


def generate_launch_description():
    share = get_package_share_directory('hb50_nodes')
    namespace = LaunchConfiguration('namespace')
    return LaunchDescription([
        DeclareLaunchArgument('namespace', default_value='/hb50',
                              description='namespace of the nodes and their topics'),
        DeclareLaunchArgument('port', default_value='8765',
                              description='WebSocket port of the Foxglove server'),
        DeclareLaunchArgument('address', default_value='127.0.0.1',
                              description='address the Foxglove server binds (0.0.0.0: all)'),
        IncludeLaunchDescription(os.path.join(share, 'launch', 'hb50_sim.launch.py'),
                                 launch_arguments=[('namespace', namespace)]),
        Node(package='hb50_nodes', executable='state_publisher_node',
             name='state_publisher_node', namespace=namespace, output='screen',
             parameters=[{'publish_global_robot_description': True}]),
        Node(package='foxglove_live', executable='foxglove_server', name='foxglove_server',
             output='screen', parameters=[{'port': LaunchConfiguration('port'),
                                           'address': LaunchConfiguration('address')}]),
    ])
