# SPDX-License-Identifier: Apache-2.0
"""ChangeState: ask the matching LifecycleNode actions' nodes to take a transition."""

import collections
from typing import Any, Callable, Dict, Text

from launch.event import Event
from lifecycle_msgs.msg import State
from lifecycle_msgs.msg import Transition


_TRANSITIONS = ('CREATE', 'CONFIGURE', 'CLEANUP', 'ACTIVATE', 'DEACTIVATE',
                'UNCONFIGURED_SHUTDOWN', 'INACTIVE_SHUTDOWN', 'ACTIVE_SHUTDOWN', 'DESTROY')
_STATES = ('PRIMARY_STATE_UNKNOWN', 'PRIMARY_STATE_UNCONFIGURED', 'PRIMARY_STATE_INACTIVE',
           'PRIMARY_STATE_ACTIVE', 'PRIMARY_STATE_FINALIZED', 'TRANSITION_STATE_CONFIGURING',
           'TRANSITION_STATE_CLEANINGUP', 'TRANSITION_STATE_SHUTTINGDOWN',
           'TRANSITION_STATE_ACTIVATING', 'TRANSITION_STATE_DEACTIVATING',
           'TRANSITION_STATE_ERRORPROCESSING')


class ChangeState(Event):
    """
    Emitted to request a transition of lifecycle nodes.

    ``lifecycle_node_matcher``: a callable of a LifecycleNode action, True for the nodes
    that should take the transition (``launch.events.matches_action(node_action)``,
    ``launch_ros.events.lifecycle.matches_node_name('/name')``). ``transition_id``: one of
    the ids of lifecycle_msgs/msg/Transition, e.g. ``Transition.TRANSITION_CONFIGURE``;
    another id is a ValueError.
    """

    name = 'launch_ros.events.lifecycle.ChangeState'
    #: transition id -> constant name (lifecycle_msgs/msg/Transition)
    valid_transitions: Dict[int, Text] = collections.OrderedDict(
        (getattr(Transition, 'TRANSITION_' + t), 'TRANSITION_' + t) for t in _TRANSITIONS)
    #: state id -> constant name (lifecycle_msgs/msg/State)
    valid_states: Dict[int, Text] = collections.OrderedDict(
        (getattr(State, s), s) for s in _STATES)

    def __init__(self, *, lifecycle_node_matcher: Callable[[Any], bool],
                 transition_id: int) -> None:
        """Create the event; ValueError for an unknown ``transition_id``."""
        super().__init__()
        if isinstance(transition_id, bool) or transition_id not in self.valid_transitions:
            known = ', '.join(f'{k}: {v}' for k, v in self.valid_transitions.items())
            raise ValueError(f"given transition_id of '{transition_id}', expected one of "
                             f'{{{known}}}')
        self.__lifecycle_node_matcher = lifecycle_node_matcher
        self.__transition_id = transition_id

    @property
    def lifecycle_node_matcher(self) -> Callable[[Any], bool]:
        """Getter for lifecycle_node_matcher."""
        return self.__lifecycle_node_matcher

    @property
    def transition_id(self) -> int:
        """Getter for transition_id."""
        return self.__transition_id
