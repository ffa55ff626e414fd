# SPDX-License-Identifier: Apache-2.0
"""LifecycleTransition: take lifecycle nodes, found by name, through transitions in turn."""

from typing import Any, Iterable, List, Optional, Text, Tuple, Union

from launch.action import Action
from launch.actions import EmitEvent
from launch.actions import RegisterEventHandler
from launch.event import Event
from launch.event_handler import BaseEventHandler
from launch.launch_description_entity import LaunchDescriptionEntity
import launch.logging
from launch.some_substitutions_type import SomeSubstitutionsType
from launch.utilities import normalize_to_list_of_substitutions, perform_substitutions

from ..events.lifecycle import ChangeState
from ..events.lifecycle import matches_node_name
from ..events.lifecycle import StateTransition

# transition id -> (label of the transition state, label of the state it ends in)
_STEPS = {
    0: (None, 'unconfigured'),
    1: ('configuring', 'inactive'),
    2: ('cleaningup', 'unconfigured'),
    3: ('activating', 'active'),
    4: ('deactivating', 'inactive'),
    5: ('shuttingdown', 'finalized'),
    6: ('shuttingdown', 'finalized'),
    7: ('shuttingdown', 'finalized'),
    8: (None, None),
}


def _transition_id(text: Text) -> int:
    """Return the transition id of ``text``: a number, or a Transition constant's name."""
    value = text.strip()
    try:
        number = int(value)
    except ValueError:
        by_name = {name: tid for tid, name in ChangeState.valid_transitions.items()}
        key = value.upper()
        number = by_name.get(key, by_name.get('TRANSITION_' + key, -1))
        if number < 0:
            raise ValueError(f"unknown lifecycle transition '{text}'") from None
    if number not in ChangeState.valid_transitions:
        known = ', '.join(f'{k} ({v})' for k, v in ChangeState.valid_transitions.items())
        raise ValueError(f'unknown lifecycle transition id {number}, expected one of {known}')
    return number


class _NextTransition(BaseEventHandler):
    """After a node's transition ``steps[index]`` ended: request the next, or report."""

    def __init__(self, transition: 'LifecycleTransition', node_name: Text,
                 steps: List[int], index: int) -> None:
        self.__transition_state, self.__goal = _STEPS[steps[index]]
        matcher = matches_node_name(node_name)

        def matches(event: Event) -> bool:
            return isinstance(event, StateTransition) and matcher(event.action) and \
                self.__transition_state is not None and \
                event.start_state == self.__transition_state
        super().__init__(matcher=matches, handle_once=True)
        self.__owner = transition
        self.__node_name = node_name
        self.__steps = steps
        self.__index = index

    def handle(self, event: Event, context: Any) -> Optional[List[LaunchDescriptionEntity]]:
        super().handle(event, context)
        assert isinstance(event, StateTransition)
        label = ChangeState.valid_transitions[self.__steps[self.__index]]
        if event.goal_state != self.__goal:
            rest = [ChangeState.valid_transitions[t] for t in self.__steps[self.__index + 1:]]
            self.__owner._logger.error(
                f"LifecycleTransition: '{self.__node_name}' ended transition '{label}' in "
                f"state '{event.goal_state}', not '{self.__goal}'"
                + (f"; not requesting {', '.join(rest)}" if rest else ''))
            return None
        if self.__index + 1 >= len(self.__steps):
            return None
        return self.__owner._step(self.__node_name, self.__steps, self.__index + 1)


class LifecycleTransition(Action):
    """
    Takes the lifecycle nodes named ``lifecycle_node_names`` through ``transition_ids``.

    For each node, the first transition is requested (a ChangeState event matched with
    ``matches_node_name``); each next one once the node reached the state the previous one
    leads to. When a transition ends elsewhere (the node's callback failed), the rest are
    not requested and that is one logged error. ``lifecycle_node_names`` are full node names
    (``'/ns/name'``; a name without the leading slash is taken as absolute).
    ``transition_ids``: ints (lifecycle_msgs/msg/Transition), or substitutions giving one
    (or, beyond upstream, a Transition constant name such as ``'configure'``); an unknown id
    is one logged error when the action runs. The transitions must be possible in turn.
    """

    def __init__(self, *, lifecycle_node_names: Iterable[SomeSubstitutionsType],
                 transition_ids: Iterable[Union[int, SomeSubstitutionsType]],
                 **kwargs: Any) -> None:
        """Create the action; ValueError if either list is empty."""
        super().__init__(**kwargs)
        names = list(lifecycle_node_names)
        ids = list(transition_ids)
        if len(ids) == 0:
            raise ValueError('No transition_ids provided.')
        if len(names) == 0:
            raise ValueError('No lifecycle_node_names provided.')
        self.__lifecycle_node_names = [normalize_to_list_of_substitutions(n) for n in names]
        self.__transition_ids = [normalize_to_list_of_substitutions(
            str(t) if isinstance(t, int) else t) for t in ids]
        self._logger = launch.logging.get_logger(__name__)

    @property
    def lifecycle_node_names(self) -> List[Any]:
        """Return the node names, as lists of substitutions."""
        return self.__lifecycle_node_names

    @property
    def transition_ids(self) -> List[Any]:
        """Return the transition ids, as lists of substitutions."""
        return self.__transition_ids

    def _step(self, node_name: Text, steps: List[int], index: int
              ) -> List[LaunchDescriptionEntity]:
        return [
            RegisterEventHandler(_NextTransition(self, node_name, steps, index)),
            EmitEvent(event=ChangeState(lifecycle_node_matcher=matches_node_name(node_name),
                                        transition_id=steps[index])),
        ]

    def __evaluate(self, context: Any) -> Tuple[List[Text], List[int]]:
        names = [perform_substitutions(context, n) for n in self.__lifecycle_node_names]
        ids = [_transition_id(perform_substitutions(context, t))
               for t in self.__transition_ids]
        return names, ids

    def execute(self, context: Any) -> Optional[List[LaunchDescriptionEntity]]:
        """Request each node's first transition; the next ones follow its state changes."""
        try:
            names, steps = self.__evaluate(context)
        except ValueError as e:
            self._logger.error(f'LifecycleTransition: {e}; no transition requested')
            return None
        actions: List[LaunchDescriptionEntity] = []
        for name in names:
            actions += self._step(name, steps, 0)
        return actions
