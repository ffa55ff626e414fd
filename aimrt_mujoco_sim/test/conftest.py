# SPDX-License-Identifier: Apache-2.0
"""The `domain_id` fixture of the aimrt_mujoco_sim tests (the workspace's one domain fixture)."""

from workspace_testing.pytest_fixtures import domain_id  # noqa: F401
