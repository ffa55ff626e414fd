# SPDX-License-Identifier: Apache-2.0
"""
Fixtures shared by the workspace tests.

An isolated DDS domain per test session, and
rclpy started once.
"""

import os

import pytest
import workspace_testing as wt

# A domain from the workspace's one allocator, discovery on this host, and
# ROS_PYTHON_CHECK_FIELDS on so that a wrong field value raises.
os.environ.setdefault('ROS_PYTHON_CHECK_FIELDS', '1')  # read when a message module is imported


@pytest.fixture(scope='session', autouse=True)
def isolated_domain():
    return wt.isolate()


@pytest.fixture(scope='module')
def ros_node(isolated_domain):
    import rclpy
    rclpy.init()
    node = rclpy.create_node('workspace_test')
    try:
        yield node
    finally:
        node.destroy_node()
        rclpy.shutdown()
