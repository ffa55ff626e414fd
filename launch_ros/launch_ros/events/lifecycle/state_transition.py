# SPDX-License-Identifier: Apache-2.0
"""StateTransition: a lifecycle node published a lifecycle_msgs/msg/TransitionEvent."""

from typing import Any, Text

from launch.event import Event


class StateTransition(Event):
    """
    Emitted when the node of a LifecycleNode action changed state.

    ``action``: the LifecycleNode; ``msg``: the node's ``~/transition_event`` message.
    ``transition``, ``start_state`` and ``goal_state`` are the labels in the message
    (``'configure'``, ``'configuring'``, ``'inactive'``, ...).
    """

    name = 'launch_ros.events.lifecycle.StateTransition'

    def __init__(self, *, action: Any, msg: Any) -> None:
        """Create the event."""
        super().__init__()
        self.__action = action
        self.__msg = msg
        self.__timestamp: int = msg.timestamp
        self.__transition: Text = msg.transition.label
        self.__start_state: Text = msg.start_state.label
        self.__goal_state: Text = msg.goal_state.label

    @property
    def action(self) -> Any:
        """Getter for action."""
        return self.__action

    @property
    def msg(self) -> Any:
        """Getter for msg."""
        return self.__msg

    @property
    def timestamp(self) -> int:
        """Getter for timestamp."""
        return self.__timestamp

    @property
    def transition(self) -> Text:
        """Getter for transition."""
        return self.__transition

    @property
    def start_state(self) -> Text:
        """Getter for start_state."""
        return self.__start_state

    @property
    def goal_state(self) -> Text:
        """Getter for goal_state."""
        return self.__goal_state
