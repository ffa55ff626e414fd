# SPDX-License-Identifier: Apache-2.0
"""
Start the simulated HB50 stack as three processes with the shipped parameters.

Usage (ROS 2 with launch installed): ros2 launch hb50_nodes hb50_sim.launch.py
"""

import os

from ament_index_python.packages import get_package_share_directory
from launch import LaunchDescription
from launch_ros.actions import Node


def generate_launch_description():
    params = os.path.join(get_package_share_directory('hb50_nodes'), 'config', 'hb50.yaml')
    return LaunchDescription([
        Node(package='hb50_nodes', executable='bridge_node', name='bridge_node',
             parameters=[params], output='screen'),
        Node(package='hb50_nodes', executable='control_node', name='control_node',
             parameters=[params], output='screen'),
        Node(package='hb50_nodes', executable='heartbeat_monitor', name='heartbeat_monitor',
             parameters=[params], output='screen'),
    ])
