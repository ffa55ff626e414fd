# SPDX-License-Identifier: Apache-2.0
"""
Run the Adam arm-pose example with the Fast DDS interop profile.

    ros2 launch pnd_adam_examples arm_pose.launch.py
Set ROS_DOMAIN_ID to the robot's domain (vendor: 2) before launching.
"""

import os

from ament_index_python.packages import get_package_share_directory
from launch import LaunchDescription
from launch.actions import SetEnvironmentVariable
from launch_ros.actions import Node


def generate_launch_description():
    share = get_package_share_directory('pnd_adam_examples')
    return LaunchDescription([
        # Needed on Fast DDS 3 (Kilted) to exchange data with the robot's Cyclone DDS.
        SetEnvironmentVariable('FASTDDS_DEFAULT_PROFILES_FILE',
                               os.path.join(share, 'config', 'fastdds_adam_interop.xml')),
        Node(package='pnd_adam_examples', executable='adam_arm_pose', output='screen',
             parameters=[os.path.join(share, 'config', 'arm_pose.yaml')]),
    ])
