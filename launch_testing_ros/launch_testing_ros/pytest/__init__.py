# SPDX-License-Identifier: Apache-2.0
"""The pytest plugin of launch_testing_ros: ``rostest`` files run by its runner."""
