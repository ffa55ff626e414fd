# SPDX-License-Identifier: Apache-2.0
"""Session setup shared by the ROS tests: isolated domain, one rclpy context."""
import os
import sys

import pytest

sys.path.insert(0, os.path.dirname(__file__))
import rs_harness  # noqa: E402

rs_harness.isolate_environment()


@pytest.fixture(scope='session')
def ros():
    import rclpy
    rclpy.init()
    yield
    rclpy.try_shutdown()
