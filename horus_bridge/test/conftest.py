# SPDX-License-Identifier: Apache-2.0
"""The DDS domain of the bridge tests: `domain_id`, one per test module (workspace_testing)."""
from workspace_testing.pytest_fixtures import domain_id  # noqa: F401
