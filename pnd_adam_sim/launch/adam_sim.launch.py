# SPDX-License-Identifier: Apache-2.0
"""
Start the Adam U simulator (plain Cyclone DDS, no ROS 2 inside) with the shipped config.

    ros2 launch pnd_adam_sim adam_sim.launch.py [domain_id:=2]
Keep it on this host with
    export CYCLONEDDS_URI=file://$(ros2 pkg prefix pnd_adam_sim)/share/pnd_adam_sim/config/\
cyclonedds_localhost.xml
"""

import os

from ament_index_python.packages import get_package_share_directory
from launch import LaunchDescription
from launch.actions import DeclareLaunchArgument
from launch.substitutions import LaunchConfiguration
from launch_ros.actions import Node


def generate_launch_description():
    config = os.path.join(get_package_share_directory('pnd_adam_sim'), 'config',
                          'adam_sim.yaml')
    return LaunchDescription([
        DeclareLaunchArgument('domain_id', default_value='2',
                              description='DDS domain of the simulated robot'),
        Node(package='pnd_adam_sim', executable='adam_sim', name='adam_sim', output='screen',
             arguments=['--config', config, '--domain', LaunchConfiguration('domain_id')]),
    ])
