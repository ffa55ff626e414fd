# Copyright 2025 The horus_msg_py authors
# SPDX-License-Identifier: Apache-2.0
"""
The HORUS <-> ROS 2 bridge and the Foxglove server (foxglove_live).

    ros2 launch horus_bridge horus_foxglove.launch.py [params_file:=...] [port:=8765]
        [address:=127.0.0.1]
then in Foxglove: Open connection > Foxglove WebSocket > ws://localhost:8765 shows what the
HORUS programs publish (with the shipped routes /scan, /imu/data, /odom, /battery_state).
There is no HORUS simulator or state publisher in the workspace: run the HORUS side (a robot
or a simulation) beside it, in the same HORUS_NAMESPACE.
"""

import os

from ament_index_python.packages import get_package_share_directory
from launch import LaunchDescription
from launch.actions import DeclareLaunchArgument, IncludeLaunchDescription
from launch.substitutions import LaunchConfiguration
from launch_ros.actions import Node


def generate_launch_description():
    share = get_package_share_directory('horus_bridge')
    return LaunchDescription([
        DeclareLaunchArgument('params_file',
                              default_value=os.path.join(share, 'config', 'horus_bridge.yaml'),
                              description='bridge parameters (topic mappings)'),
        DeclareLaunchArgument('port', default_value='8765',
                              description='WebSocket port of the Foxglove server'),
        DeclareLaunchArgument('address', default_value='127.0.0.1',
                              description='address the Foxglove server binds (0.0.0.0: all)'),
        IncludeLaunchDescription(
            os.path.join(share, 'launch', 'horus_bridge.launch.py'),
            launch_arguments=[('params_file', LaunchConfiguration('params_file'))]),
        Node(package='foxglove_live', executable='foxglove_server', name='foxglove_server',
             output='screen', parameters=[{'port': LaunchConfiguration('port'),
                                           'address': LaunchConfiguration('address')}]),
    ])
