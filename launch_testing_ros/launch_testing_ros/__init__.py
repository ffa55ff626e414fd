# SPDX-License-Identifier: Apache-2.0
"""
ROS helpers of launch tests (ros2/launch_ros's launch_testing_ros).

WaitForTopics, DataRepublisher, MessagePump, and LaunchROSTestModule (the pytest collector
of files whose generate_test_description is marked ``rostest``). Imported on first use, so
that the pytest plugin does not load rclpy into every pytest run.
"""

import importlib
from typing import Any

_WHERE = {
    'DataRepublisher': '.data_republisher',
    'LaunchROSTestModule': '.pytest.hooks',
    'MessagePump': '.message_pump',
    'WaitForTopics': '.wait_for_topics',
}

__all__ = sorted(_WHERE)


def __getattr__(name: str) -> Any:
    """Import the helper ``name`` on first use."""
    if name not in _WHERE:
        raise AttributeError(f"module 'launch_testing_ros' has no attribute '{name}'")
    value = getattr(importlib.import_module(_WHERE[name], __name__), name)
    globals()[name] = value
    return value
