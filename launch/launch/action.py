# SPDX-License-Identifier: Apache-2.0
"""The Action class: a launch description entity that does something when visited."""

from typing import Any, Dict, List, Optional, Text, Tuple, TYPE_CHECKING

from .condition import Condition
from .launch_description_entity import LaunchDescriptionEntity

if TYPE_CHECKING:
    from .frontend.entity import Entity
    from .frontend.parser import Parser
    from .launch_context import LaunchContext


class Action(LaunchDescriptionEntity):
    """
    An intention to do something, executed when visited (and when its condition holds).

    Subclasses override ``execute``; it may return more entities to visit.
    """

    def __init__(self, *, condition: Optional[Condition] = None) -> None:
        """Create an Action, executed only if ``condition`` is None or evaluates True."""
        self.__condition = condition

    @staticmethod
    def parse(entity: 'Entity', parser: 'Parser') -> Tuple[type, Dict[str, Any]]:
        """Return (Action, kwargs) with the ``if`` / ``unless`` condition of an entity."""
        from .conditions import IfCondition, UnlessCondition
        if_cond = entity.get_attr('if', optional=True)
        unless_cond = entity.get_attr('unless', optional=True)
        kwargs: Dict[str, Any] = {}
        if if_cond is not None and unless_cond is not None:
            raise RuntimeError(f"{entity.describe_location()}: if and unless conditions can't "
                               'be used simultaneously')
        if if_cond is not None:
            kwargs['condition'] = IfCondition(parser.parse_substitution(if_cond))
        if unless_cond is not None:
            kwargs['condition'] = UnlessCondition(parser.parse_substitution(unless_cond))
        return Action, kwargs

    @property
    def condition(self) -> Optional[Condition]:
        """Getter for the condition."""
        return self.__condition

    def describe(self) -> Text:
        """Return a description of this Action."""
        return self.__repr__()

    def visit(self, context: 'LaunchContext') -> Optional[List[LaunchDescriptionEntity]]:
        """Execute the action if its condition (if any) holds."""
        if self.__condition is None or self.__condition.evaluate(context):
            try:
                return self.execute(context)
            finally:
                from .events import ExecutionComplete
                event = ExecutionComplete(action=self)
                if context.would_handle_event(event):
                    future = self.get_asyncio_future()
                    if future is not None:
                        future.add_done_callback(
                            lambda _: context.emit_event_sync(event))
                    else:
                        context.emit_event_sync(event)
        return None

    def execute(self, context: 'LaunchContext') -> Optional[List[LaunchDescriptionEntity]]:
        """Execute the action; the default does nothing."""
        return None
