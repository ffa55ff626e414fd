# SPDX-License-Identifier: Apache-2.0
"""ROS helpers of launch tests (ros2/launch_ros's launch_testing_ros): WaitForTopics."""

from .wait_for_topics import WaitForTopics

__all__ = ['WaitForTopics']
