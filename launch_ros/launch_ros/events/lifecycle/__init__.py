# SPDX-License-Identifier: Apache-2.0
"""The events of lifecycle nodes: ChangeState (a request) and StateTransition (a report)."""

from launch.events import matches_action

from .change_state import ChangeState
from .lifecycle_node_matchers import matches_node_name
from .state_transition import StateTransition

__all__ = [
    'ChangeState',
    'matches_action',
    'matches_node_name',
    'StateTransition',
]
