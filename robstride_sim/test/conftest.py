# SPDX-License-Identifier: Apache-2.0
"""Session setup shared by the ROS tests: isolated domain, one rclpy context."""
import os
import sys

import pytest
from workspace_testing import isolate

sys.path.insert(0, os.path.dirname(__file__))

# This session's ROS_DOMAIN_ID (held until the session ends); before rclpy.init reads it.
isolate()


@pytest.fixture(scope='session')
def ros():
    import rclpy
    rclpy.init()
    yield
    rclpy.try_shutdown()
