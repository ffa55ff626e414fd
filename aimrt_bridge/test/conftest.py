# SPDX-License-Identifier: Apache-2.0
"""The tests import the installed aimrt_bridge and get the workspace's `domain_id` fixture."""
from workspace_testing.pytest_fixtures import domain_id, use_installed_package  # noqa: F401

use_installed_package(__file__)
