# SPDX-License-Identifier: Apache-2.0
"""TimerAction: run actions after a period."""

import asyncio
from typing import (Any, Dict, Iterable, List, Optional, Text, Tuple, Type, TYPE_CHECKING,
                    Union)

from ..action import Action
from ..event import Event
from ..event_handler import BaseEventHandler
from ..event_handlers.on_shutdown import OnShutdown
from ..events import TimerEvent
from ..frontend.expose import expose_action
from ..launch_description_entity import LaunchDescriptionEntity
from ..some_substitutions_type import SomeSubstitutionsType
from ..substitution import Substitution
from ..utilities import normalize_to_list_of_substitutions, perform_substitutions

if TYPE_CHECKING:
    from ..frontend.entity import Entity
    from ..frontend.parser import Parser
    from ..launch_context import LaunchContext


class _OnTimer(BaseEventHandler):
    """The handler of one timer's TimerEvent: its actions, with its locals."""

    def __init__(self, timer: 'TimerAction', context_locals: Dict[str, Any]) -> None:
        super().__init__(matcher=lambda event: isinstance(event, TimerEvent)
                         and event.timer_action is timer, handle_once=True)
        self.__timer = timer
        self.__locals = context_locals

    def handle(self, event: Event, context: 'LaunchContext') -> List[LaunchDescriptionEntity]:
        super().handle(event, context)
        context.extend_locals(self.__locals)
        return self.__timer.actions


@expose_action('timer')
class TimerAction(Action):
    """
    Runs ``actions`` once ``period`` seconds (float or substitutions) have passed.

    ``cancel()`` or, with ``cancel_on_shutdown`` (default), the launch's shutdown cancels
    it. The actions see the locals of the moment the timer was executed.
    """

    def __init__(self, *, period: Union[float, SomeSubstitutionsType],
                 actions: Iterable[LaunchDescriptionEntity],
                 cancel_on_shutdown: Union[bool, SomeSubstitutionsType] = True,
                 **kwargs: Any) -> None:
        """Create the action."""
        super().__init__(**kwargs)
        self.__period: Union[float, List[Substitution]] = float(period) \
            if isinstance(period, (int, float)) else normalize_to_list_of_substitutions(period)
        self.__actions = list(actions)
        self.__cancel_on_shutdown = cancel_on_shutdown
        self.__canceled = False
        self.__canceled_future: Optional['asyncio.Future[Any]'] = None
        self.__completed_future: Optional['asyncio.Future[Any]'] = None

    @classmethod
    def parse(cls, entity: 'Entity', parser: 'Parser') -> Tuple[Type['Action'], Dict[str, Any]]:
        """Parse ``<timer period>actions</timer>``."""
        _, kwargs = super().parse(entity, parser)
        kwargs['period'] = parser.parse_if_substitutions(
            entity.get_attr('period', data_type=float, can_be_str=True))
        kwargs['actions'] = [parser.parse_action(child) for child in entity.children]
        return cls, kwargs

    @property
    def period(self) -> Union[float, List[Substitution]]:
        """Return the period: seconds, or substitutions performed when executed."""
        return self.__period

    @property
    def actions(self) -> List[LaunchDescriptionEntity]:
        """Getter for the actions."""
        return self.__actions

    def describe_conditional_sub_entities(
        self
    ) -> List[Tuple[Text, Iterable[LaunchDescriptionEntity]]]:
        """Return the actions, run only if the timer fires."""
        period = self.__period if isinstance(self.__period, float) \
            else ' + '.join(s.describe() for s in self.__period)
        return [(f'{period} seconds pass without being canceled', self.__actions)]

    def cancel(self) -> None:
        """Cancel the timer (its actions will not run)."""
        self.__canceled = True
        if self.__canceled_future is not None and not self.__canceled_future.done():
            self.__canceled_future.set_result(True)

    def _period_elapsed(
        self, context: 'LaunchContext', period: float
    ) -> Optional['asyncio.Future[Any]']:
        """
        Return a future done when ``period`` has passed, None for the system clock's seconds.

        Called in the timer's task when it starts waiting; subclasses (launch_ros' ROSTimer)
        count the period on another clock. A future left undone is cancelled when the timer
        is cancelled.
        """
        return None

    async def __wait_and_fire(self, context: 'LaunchContext', period: float) -> None:
        assert self.__canceled_future is not None and self.__completed_future is not None
        try:
            elapsed = self._period_elapsed(context, period)
            if elapsed is None:
                await asyncio.wait([self.__canceled_future], timeout=period)
            else:
                try:
                    await asyncio.wait([self.__canceled_future, elapsed],
                                       return_when=asyncio.FIRST_COMPLETED)
                finally:
                    if not elapsed.done():
                        elapsed.cancel()
            if not self.__canceled:
                await context.emit_event(TimerEvent(timer_action=self))
        finally:
            if not self.__completed_future.done():
                self.__completed_future.set_result(None)

    def execute(self, context: 'LaunchContext') -> None:
        """Start the timer."""
        if self.__canceled:
            return None
        from ..utilities.type_utils import perform_typed_substitution
        period = self.__period if isinstance(self.__period, float) \
            else float(perform_substitutions(context, self.__period))
        loop = context.asyncio_loop
        assert loop is not None     # executed in a running launch
        self.__canceled_future = loop.create_future()
        self.__completed_future = loop.create_future()
        context.add_completion_future(self.__completed_future)
        context.register_event_handler(_OnTimer(self, context.get_locals_as_dict()))
        if perform_typed_substitution(context, self.__cancel_on_shutdown, bool):
            context.register_event_handler(OnShutdown(on_shutdown=lambda *_: self.cancel()))
        loop.create_task(self.__wait_and_fire(context, period))
        return None

    def get_asyncio_future(self) -> Optional['asyncio.Future[Any]']:
        """Return the future done when the timer fired or was canceled."""
        return self.__completed_future
