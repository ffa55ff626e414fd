# SPDX-License-Identifier: Apache-2.0
"""
Start the simulated HB50 stack as three processes with the shipped parameters.

Usage (ROS 2 with launch installed): ros2 launch hb50_nodes hb50_sim.launch.py
[namespace:=/robot2] (default /hb50: the topics are /hb50/bridge_data etc.).
"""

import os

from ament_index_python.packages import get_package_share_directory
from launch import LaunchDescription
from launch.actions import DeclareLaunchArgument
from launch.substitutions import LaunchConfiguration
from launch_ros.actions import Node


def generate_launch_description():
    params = os.path.join(get_package_share_directory('hb50_nodes'), 'config', 'hb50.yaml')
    namespace = LaunchConfiguration('namespace')
    return LaunchDescription([
        DeclareLaunchArgument('namespace', default_value='/hb50',
                              description='namespace of the nodes and their topics'),
        Node(package='hb50_nodes', executable='bridge_node', name='bridge_node',
             namespace=namespace, parameters=[params], output='screen'),
        Node(package='hb50_nodes', executable='control_node', name='control_node',
             namespace=namespace, parameters=[params], output='screen'),
        Node(package='hb50_nodes', executable='heartbeat_monitor', name='heartbeat_monitor',
             namespace=namespace, parameters=[params], output='screen'),
    ])
