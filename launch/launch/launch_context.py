# SPDX-License-Identifier: Apache-2.0
"""The LaunchContext class: the state a launch shares between its entities."""

import asyncio
import collections
import os
from typing import Any, Deque, Dict, Iterable, List, MutableMapping, Optional, Text, TYPE_CHECKING

from .event import Event
from .event_handler import BaseEventHandler

if TYPE_CHECKING:
    from .substitution import Substitution


class _Locals:
    """Attribute access to the current locals (``context.locals.event``)."""

    def __init__(self, values: Dict[Text, Any]) -> None:
        object.__setattr__(self, '_values', values)

    def __getattr__(self, name: Text) -> Any:
        try:
            return self._values[name]
        except KeyError:
            raise AttributeError(f"context.locals does not contain attribute '{name}', "
                                 f'it contains: [{", ".join(self._values)}]') from None

    def __setattr__(self, name: Text, value: Any) -> None:
        raise AttributeError("can't set attribute")


class LaunchContext:
    """
    What the entities of one launch share while it runs.

    Launch configurations (a stack, see Push/PopLaunchConfigurations), locals (scoped to
    one visit of an entity and its sub-entities), globals, the process environment (a
    stack too), the registered event handlers and the event queue.
    """

    def __init__(self, *, argv: Optional[Iterable[Text]] = None,
                 noninteractive: bool = False) -> None:
        """Create a context with the command line arguments ``argv``."""
        self.__argv = list(argv) if argv is not None else []
        self.__noninteractive = noninteractive
        self._event_queue: 'asyncio.Queue[Event]' = asyncio.Queue()
        self._event_handlers: Deque[BaseEventHandler] = collections.deque()
        self._completion_futures: List['asyncio.Future[Any]'] = []
        self.__globals: Dict[Text, Any] = {}
        self.__locals_stack: List[Dict[Text, Any]] = []
        self.__locals: Dict[Text, Any] = {}
        self.__launch_configurations_stack: List[Dict[Text, Text]] = []
        self.__launch_configurations: Dict[Text, Text] = {}
        self.__environment_stack: List[Dict[Text, Text]] = []
        self.__initial_environment: Dict[Text, Text] = dict(os.environ)
        self.__is_shutdown = False
        self.__asyncio_loop: Optional[asyncio.AbstractEventLoop] = None
        self.__shutdown_handlers: List[Any] = []

    @property
    def argv(self) -> List[Text]:
        """Getter for argv."""
        return self.__argv

    @property
    def noninteractive(self) -> bool:
        """Return True without a terminal (then children get SIGINT from launch)."""
        return self.__noninteractive

    @property
    def is_shutdown(self) -> bool:
        """Return True once shutdown has started."""
        return self.__is_shutdown

    def _set_is_shutdown(self, state: bool) -> None:
        self.__is_shutdown = state

    @property
    def asyncio_loop(self) -> Optional[asyncio.AbstractEventLoop]:
        """Return the event loop of the running launch, or None when not running."""
        return self.__asyncio_loop

    def _set_asyncio_loop(self, loop: Optional[asyncio.AbstractEventLoop]) -> None:
        self.__asyncio_loop = loop

    # globals and locals
    def extend_globals(self, extensions: Dict[Text, Any]) -> None:
        """Add or replace global values."""
        self.__globals.update(extensions)

    def extend_locals(self, extensions: Dict[Text, Any]) -> None:
        """Add or replace values of the current locals."""
        self.__locals.update(extensions)

    def _push_locals(self) -> None:
        self.__locals_stack.append(dict(self.__locals))

    def _pop_locals(self) -> None:
        if not self.__locals_stack:
            raise RuntimeError('locals stack unexpectedly empty')
        self.__locals = self.__locals_stack.pop()

    def get_locals_as_dict(self) -> Dict[Text, Any]:
        """Return a copy of the current locals."""
        return dict(self.__locals)

    @property
    def locals(self) -> _Locals:  # noqa: A003 - upstream's name
        """Give attribute access to the current local values, globals beneath them."""
        values = dict(self.__globals)
        values.update(self.__locals)
        return _Locals(values)

    # launch configurations
    @property
    def launch_configurations(self) -> Dict[Text, Text]:
        """Return the current launch configurations (a mutable dict)."""
        return self.__launch_configurations

    def _push_launch_configurations(self) -> None:
        self.__launch_configurations_stack.append(dict(self.__launch_configurations))

    def _pop_launch_configurations(self) -> None:
        if not self.__launch_configurations_stack:
            raise RuntimeError('launch configurations stack unexpectedly empty')
        self.__launch_configurations = self.__launch_configurations_stack.pop()

    # environment
    @property
    def environment(self) -> MutableMapping[Text, Text]:
        """Return the environment launch gives its processes (this process's os.environ)."""
        return os.environ

    def _push_environment(self) -> None:
        self.__environment_stack.append(dict(os.environ))

    def _pop_environment(self) -> None:
        if not self.__environment_stack:
            raise RuntimeError('environment stack unexpectedly empty')
        saved = self.__environment_stack.pop()
        os.environ.clear()
        os.environ.update(saved)

    def _reset_environment(self) -> None:
        os.environ.clear()      # back to the environment of the context's creation
        os.environ.update(self.__initial_environment)

    # event handlers and events
    def register_event_handler(self, event_handler: BaseEventHandler,
                               append: bool = False) -> None:
        """Register an event handler (first in line, unless ``append``)."""
        if append:
            self._event_handlers.append(event_handler)
        else:
            self._event_handlers.appendleft(event_handler)

    def unregister_event_handler(self, event_handler: BaseEventHandler) -> None:
        """Unregister an event handler; ValueError if it is not registered."""
        try:
            self._event_handlers.remove(event_handler)
        except ValueError:
            raise ValueError(f"Specified event handler '{event_handler}' not found.") from None

    def would_handle_event(self, event: Event) -> bool:
        """Return True if a registered handler matches ``event``."""
        return any(handler.matches(event) for handler in self._event_handlers)

    def emit_event_sync(self, event: Event) -> None:
        """Queue an event, from the launch's thread, without awaiting."""
        self._event_queue.put_nowait(event)

    async def emit_event(self, event: Event) -> None:
        """Queue an event."""
        await self._event_queue.put(event)

    def add_completion_future(self, completion_future: 'asyncio.Future[Any]') -> None:
        """Make launch wait for ``completion_future`` as for an entity's future."""
        self._completion_futures.append(completion_future)

    def perform_substitution(self, substitution: 'Substitution') -> Text:
        """Perform one substitution in this context."""
        return substitution.perform(self)
