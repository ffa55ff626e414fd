# SPDX-License-Identifier: Apache-2.0
"""The events of launch_ros: ``lifecycle`` (ChangeState, StateTransition) and matchers."""

from . import lifecycle
from .matchers import matches_node_name

__all__ = [
    'lifecycle',
    'matches_node_name',
]
