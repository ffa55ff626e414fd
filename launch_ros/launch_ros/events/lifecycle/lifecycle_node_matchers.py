# SPDX-License-Identifier: Apache-2.0
"""Matchers of LifecycleNode actions, for ChangeState's ``lifecycle_node_matcher``."""

from ..matchers import matches_node_name

__all__ = ['matches_node_name']
