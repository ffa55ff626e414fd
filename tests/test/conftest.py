# SPDX-License-Identifier: Apache-2.0
"""
Fixtures shared by the workspace tests.

The workspace's `domain_id` fixture (a DDS domain per test module, this process on it) and
an rclpy node on it, started once per module.
"""

import os

import pytest
import workspace_testing as wt
from workspace_testing.pytest_fixtures import domain_id  # noqa: F401

# The session's own domain for any test that asks for no `domain_id` (discovery on this
# host), and ROS_PYTHON_CHECK_FIELDS on so that a wrong field value raises.
wt.isolate()
os.environ.setdefault('ROS_PYTHON_CHECK_FIELDS', '1')  # read when a message module is imported


@pytest.fixture(scope='module')
def ros_node(domain_id):  # noqa: F811 (the fixture imported above)
    import rclpy
    rclpy.init()
    node = rclpy.create_node('workspace_test')
    try:
        yield node
    finally:
        node.destroy_node()
        rclpy.shutdown()
