# SPDX-License-Identifier: Apache-2.0
"""The LaunchTestRunner of ROS launch tests (``rostest``): launch_testing's."""

import launch_testing.test_runner


class LaunchTestRunner(launch_testing.test_runner.LaunchTestRunner):
    """Runs ROS launch tests; the processes get their ROS environment from the launch."""
