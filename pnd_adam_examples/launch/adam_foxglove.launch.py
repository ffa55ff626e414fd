# SPDX-License-Identifier: Apache-2.0
"""
The Adam U simulator, adam_state_publisher and the Foxglove server (foxglove_live).

    ros2 launch pnd_adam_examples adam_foxglove.launch.py [domain_id:=2] [port:=8765]
then in Foxglove: Open connection > Foxglove WebSocket > ws://localhost:8765 (the robot in
3D from /robot_description and /tf, joint_states, lowstate). The simulator is pnd_adam_sim's
adam_sim.launch.py (plain Cyclone DDS on domain_id); the ROS 2 processes get ROS_DOMAIN_ID
= domain_id and the Fast DDS interop profile (as arm_pose.launch.py), so that they receive
the simulator's lowstate. Keep it on this host with CYCLONEDDS_URI as in adam_sim.launch.py.
"""

import os

from ament_index_python.packages import get_package_share_directory
from launch import LaunchDescription
from launch.actions import DeclareLaunchArgument, IncludeLaunchDescription
from launch.actions import SetEnvironmentVariable
from launch.substitutions import LaunchConfiguration
from launch_ros.actions import Node


def generate_launch_description():
    share = get_package_share_directory('pnd_adam_examples')
    domain = LaunchConfiguration('domain_id')
    return LaunchDescription([
        DeclareLaunchArgument('domain_id', default_value='2',
                              description='DDS domain of the simulated robot and ROS 2'),
        DeclareLaunchArgument('port', default_value='8765',
                              description='WebSocket port of the Foxglove server'),
        DeclareLaunchArgument('address', default_value='127.0.0.1',
                              description='address the Foxglove server binds (0.0.0.0: all)'),
        SetEnvironmentVariable('ROS_DOMAIN_ID', domain),
        # Needed on Fast DDS 3 (Kilted) to exchange data with the simulator's Cyclone DDS.
        SetEnvironmentVariable('FASTDDS_DEFAULT_PROFILES_FILE',
                               os.path.join(share, 'config', 'fastdds_adam_interop.xml')),
        IncludeLaunchDescription(
            os.path.join(get_package_share_directory('pnd_adam_sim'), 'launch',
                         'adam_sim.launch.py'),
            launch_arguments=[('domain_id', domain)]),
        Node(package='pnd_adam_examples', executable='adam_state_publisher',
             name='adam_state_publisher', output='screen'),
        Node(package='foxglove_live', executable='foxglove_server', name='foxglove_server',
             output='screen', parameters=[{'port': LaunchConfiguration('port'),
                                           'address': LaunchConfiguration('address')}]),
    ])
