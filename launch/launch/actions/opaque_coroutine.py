# SPDX-License-Identifier: Apache-2.0
"""OpaqueCoroutine: run a Python coroutine function in launch's event loop when executed."""

import asyncio
from typing import Any, Callable, Coroutine, Dict, Iterable, List, Optional, Text

from ..action import Action
from ..event_handlers.on_shutdown import OnShutdown
from ..launch_description_entity import LaunchDescriptionEntity


class OpaqueCoroutine(Action):
    """
    Runs ``coroutine(context, *args, **kwargs)`` as a task of launch's loop when executed.

    With ``ignore_context`` the coroutine function is called without the context. The
    launch waits for the task (it is the action's future) and cancels it on shutdown.
    """

    def __init__(self, *, coroutine: Callable[..., Coroutine[Any, Any, Any]],
                 args: Optional[Iterable[Any]] = None,
                 kwargs: Optional[Dict[Text, Any]] = None, ignore_context: bool = False,
                 **left_over_kwargs: Any) -> None:
        """Create the action."""
        super().__init__(**left_over_kwargs)
        if not asyncio.iscoroutinefunction(coroutine):
            raise TypeError("OpaqueCoroutine expected a coroutine function for 'coroutine', "
                            f"got '{type(coroutine)}'")
        self.__coroutine = coroutine
        self.__args = list(args) if args is not None else []
        self.__kwargs = dict(kwargs) if kwargs is not None else {}
        self.__ignore_context = ignore_context
        self.__future: Optional['asyncio.Future[Any]'] = None

    @property
    def coroutine(self) -> Callable[..., Coroutine[Any, Any, Any]]:
        """Getter for the coroutine function."""
        return self.__coroutine

    def __on_shutdown(self, event: Any, context: Any) -> None:
        if self.__future is not None and not self.__future.done():
            self.__future.cancel()
        return None

    def execute(self, context: Any) -> Optional[List[LaunchDescriptionEntity]]:
        """Start the coroutine as a task."""
        args = self.__args if self.__ignore_context else [context, *self.__args]
        self.__future = context.asyncio_loop.create_task(
            self.__coroutine(*args, **self.__kwargs))
        context.register_event_handler(OnShutdown(on_shutdown=self.__on_shutdown))
        return None

    def get_asyncio_future(self) -> Optional['asyncio.Future[Any]']:
        """Return the task (done when the coroutine returned or was cancelled)."""
        return self.__future
