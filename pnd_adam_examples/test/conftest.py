# SPDX-License-Identifier: Apache-2.0
"""Domain of the interop tests (simulator, rclpy peer, Cyclone observer): one per module."""
from workspace_testing.pytest_fixtures import domain_id  # noqa: F401
