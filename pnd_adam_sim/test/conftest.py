# SPDX-License-Identifier: Apache-2.0
"""The simulator's DDS domain (also Cyclone's): `domain_id`, one per test module."""
from workspace_testing.pytest_fixtures import domain_id  # noqa: F401
