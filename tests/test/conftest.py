# SPDX-License-Identifier: Apache-2.0
"""
Fixtures shared by the workspace tests.

An isolated DDS domain per test session, and
rclpy started once.
"""

import os
import random

import pytest

# Workspace tests use domains 80-99 (each package's tests have their own range), discovery
# stays on this host, and ROS_PYTHON_CHECK_FIELDS is on so that a wrong field value raises.
DOMAIN_RANGE = (80, 99)
os.environ.setdefault('ROS_PYTHON_CHECK_FIELDS', '1')  # read when a message module is imported


@pytest.fixture(scope='session', autouse=True)
def isolated_domain():
    domain = os.environ.get('WS_TEST_DOMAIN_ID') or str(random.randint(*DOMAIN_RANGE))
    os.environ['ROS_DOMAIN_ID'] = domain
    os.environ.setdefault('ROS_AUTOMATIC_DISCOVERY_RANGE', 'LOCALHOST')
    return int(domain)


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
