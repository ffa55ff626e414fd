# SPDX-License-Identifier: Apache-2.0
"""
Start the simulated robstride_hardware_interface in /robstride with config/robstride_sim.yaml.

Usage (on a machine with ROS 2 launch installed):
  ros2 launch robstride_sim robstride_sim.launch.py [namespace:=/robstride] [params_file:=...]
"""
import os

from ament_index_python.packages import get_package_share_directory
from launch import LaunchDescription
from launch.actions import DeclareLaunchArgument
from launch.substitutions import LaunchConfiguration
from launch_ros.actions import Node


def generate_launch_description():
    default_params = os.path.join(get_package_share_directory('robstride_sim'), 'config',
                                  'robstride_sim.yaml')
    return LaunchDescription([
        DeclareLaunchArgument('namespace', default_value='/robstride'),
        DeclareLaunchArgument('params_file', default_value=default_params),
        Node(
            package='robstride_sim',
            executable='robstride_sim_node',
            name='robstride_hardware_interface',
            namespace=LaunchConfiguration('namespace'),
            parameters=[LaunchConfiguration('params_file')],
            output='screen',
        ),
    ])
