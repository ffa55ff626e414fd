# SPDX-License-Identifier: Apache-2.0
"""The LaunchService class: runs launch descriptions on an asyncio event loop."""

import asyncio
import collections.abc
import contextlib
import logging
import signal
import threading
import traceback
from types import FrameType
from typing import Any, Callable, Dict, Iterable, Iterator, List, Optional, Text, Tuple, Union

import launch.logging

from .event import Event
from .event_handlers import OnIncludeLaunchDescription
from .event_handlers import OnShutdown
from .events import IncludeLaunchDescription
from .events import Shutdown
from .launch_context import LaunchContext
from .launch_description import LaunchDescription
from .launch_description_entity import LaunchDescriptionEntity
from .utilities import visit_all_entities_and_collect_futures

# what signal.getsignal returns and signal.signal takes
_SignalHandler = Union[Callable[[int, Optional[FrameType]], Any], int, signal.Handlers, None]


class LaunchService:
    """
    Visits the launch descriptions it is given and runs them until done or shut down.

    ``run()`` (or ``await run_async()``) returns 0, or 1 when an exception ended the
    launch. SIGINT (Ctrl-C) shuts the launch down: every process gets SIGINT (unless the
    terminal already sent it), then SIGTERM and SIGKILL after their timeouts; a second
    SIGINT is ignored. SIGTERM and SIGQUIT shut it down the same way (upstream cancels
    the run instead, which can leave processes behind).
    """

    def __init__(self, *, argv: Optional[Iterable[Text]] = None,
                 noninteractive: bool = False, debug: bool = False) -> None:
        """Create a LaunchService; ``argv`` are the launch's own arguments (name:=value)."""
        launch.logging.launch_config.level = logging.DEBUG if debug else logging.INFO
        self.__debug = debug
        self.__argv = list(argv) if argv is not None else []
        self.__logger = launch.logging.get_logger('launch')
        self.__context = LaunchContext(argv=self.__argv, noninteractive=noninteractive)
        self.__context.register_event_handler(OnIncludeLaunchDescription())
        self.__context.register_event_handler(OnShutdown(on_shutdown=self.__on_shutdown))
        self._entity_future_pairs: List[
            Tuple[LaunchDescriptionEntity, 'asyncio.Future[Any]']] = []
        self.__loop_lock = threading.Lock()
        self.__loop: Optional[asyncio.AbstractEventLoop] = None
        self.__task: Optional['asyncio.Task[Any]'] = None
        self.__shutting_down = False

    @property
    def context(self) -> LaunchContext:
        """Getter for the launch context."""
        return self.__context

    @property
    def event_loop(self) -> Optional[asyncio.AbstractEventLoop]:
        """Return the event loop while running, else None."""
        return self.__loop

    @property
    def task(self) -> Optional['asyncio.Task[Any]']:
        """Return the task of the run while running, else None."""
        return self.__task

    def emit_event(self, event: Event) -> None:
        """Emit an event; safe to call from any thread."""
        with self.__loop_lock:
            if self.__loop is not None:
                self.__loop.call_soon_threadsafe(self.__context.emit_event_sync, event)
            else:
                self.__context.emit_event_sync(event)

    def include_launch_description(self, launch_description: LaunchDescription) -> None:
        """Visit ``launch_description`` (now, or when the run starts)."""
        self.emit_event(IncludeLaunchDescription(launch_description))

    def _is_idle(self) -> bool:
        self._entity_future_pairs = [
            pair for pair in self._entity_future_pairs if not pair[1].done()]
        self.__context._completion_futures[:] = [
            f for f in self.__context._completion_futures if not f.done()]
        return not self._entity_future_pairs and not self.__context._completion_futures \
            and self.__context._event_queue.empty()

    @contextlib.contextmanager
    def _prepare_run_loop(
        self
    ) -> Iterator[Tuple[asyncio.AbstractEventLoop, 'asyncio.Task[Any]']]:
        loop = asyncio.get_running_loop()
        task = asyncio.current_task(loop)
        assert task is not None
        with self.__loop_lock:
            if self.__loop is not None:
                raise RuntimeError('LaunchService cannot be run multiple times concurrently.')
            if self.__debug:
                loop.set_debug(True)
            self.__context._set_asyncio_loop(loop)
            # a queue of this loop, with the events emitted before the run
            queue: 'asyncio.Queue[Event]' = asyncio.Queue()
            while not self.__context._event_queue.empty():
                queue.put_nowait(self.__context._event_queue.get_nowait())
            self.__context._event_queue = queue
            self.__loop = loop
            self.__task = task
        installed: List[Tuple[signal.Signals, _SignalHandler]] = []
        sigint_received = False

        def on_sigint() -> None:
            nonlocal sigint_received
            message = 'user interrupted with ctrl-c (SIGINT)'
            if sigint_received:
                self.__logger.warning(f'{message} again, ignoring...')
                return
            sigint_received = True
            self.__logger.warning(message)
            self._shutdown(reason='ctrl-c (SIGINT)', due_to_sigint=True, force_sync=True)

        def on_terminate(signum: int) -> None:
            name = signal.Signals(signum).name
            if self.__shutting_down:
                self.__logger.warning(f'{name} received while shutting down, ignoring...')
                return
            self.__logger.warning(f'user interrupted with {name}, shutting down')
            self._shutdown(reason=name, due_to_sigint=False, force_sync=True)

        try:
            for signum, handler, args in ((signal.SIGINT, on_sigint, ()),
                                          (signal.SIGTERM, on_terminate, (signal.SIGTERM,)),
                                          (signal.SIGQUIT, on_terminate, (signal.SIGQUIT,))):
                try:
                    previous = signal.getsignal(signum)
                    loop.add_signal_handler(signum, handler, *args)
                    installed.append((signum, previous))
                except (RuntimeError, ValueError):
                    pass        # not the main thread: no signal handling
            yield loop, task
        finally:
            for signum, previous in installed:
                loop.remove_signal_handler(signum)
                with contextlib.suppress(TypeError, ValueError):
                    signal.signal(signum, previous)
            with self.__loop_lock:
                self.__context._set_asyncio_loop(None)
                self.__loop = None
                self.__task = None
                self.__shutting_down = False

    async def _process_one_event(self) -> None:
        event = await self.__context._event_queue.get()
        self.__process_event(event)

    def __process_event(self, event: Event) -> None:
        self.__logger.debug(f"processing event: '{event}'")
        for handler in tuple(self.__context._event_handlers):
            if not handler.matches(event):
                continue
            self.__logger.debug(f"processing event: '{event}' ✓ '{handler}'")
            self.__context._push_locals()
            try:
                entities = handler.handle(event, self.__context)
                if entities is None:
                    entities = ()
                elif not isinstance(entities, collections.abc.Iterable):
                    entities = (entities,)
                for entity in entities:
                    if entity is None:
                        continue
                    if not isinstance(entity, LaunchDescriptionEntity):
                        raise RuntimeError(
                            'expected a LaunchDescriptionEntity from event_handler, got '
                            f"'{entity}'")
                    self._entity_future_pairs.extend(
                        visit_all_entities_and_collect_futures(entity, self.__context))
            finally:
                self.__context._pop_locals()

    async def run_async(self, *, shutdown_when_idle: bool = True) -> int:
        """
        Run until idle (with ``shutdown_when_idle``) or shut down; return the exit code.

        Only from the main thread, and never twice at a time.
        """
        if threading.current_thread() is not threading.main_thread():
            raise RuntimeError('LaunchService can only be run in the main thread.')
        return_code = 0
        with self._prepare_run_loop() as (loop, _):
            launch.logging.log_launch_config(logger=self.__logger)

            def on_exception(loop: asyncio.AbstractEventLoop, context: Dict[str, Any]) -> None:
                nonlocal return_code
                return_code = 1
                loop.default_exception_handler(context)
            previous_handler = loop.get_exception_handler()
            loop.set_exception_handler(on_exception)
            event_task: Optional['asyncio.Task[Any]'] = None
            try:
                while True:
                    try:
                        idle = self._is_idle()
                        if idle and not self.__shutting_down and shutdown_when_idle:
                            await self._shutdown_in_loop(reason='idle', due_to_sigint=False)
                            continue
                        if idle and self.__shutting_down:
                            break
                        waits: List['asyncio.Future[Any]'] = []
                        if self.__context._event_queue.empty():
                            waits = [future for _, future in self._entity_future_pairs]
                            waits.extend(self.__context._completion_futures)
                        if event_task is None or event_task.done():
                            event_task = loop.create_task(self._process_one_event())
                        waits.append(event_task)
                        done, _ = await asyncio.wait(waits, return_when=asyncio.FIRST_COMPLETED)
                        raised = [t.exception() for t in done
                                  if not t.cancelled() and t.exception() is not None]
                        for extra in raised[1:]:
                            self.__logger.error(str(extra))
                        if raised:
                            raise raised[0]     # type: ignore[misc]
                    except KeyboardInterrupt:
                        continue
                    except asyncio.CancelledError:
                        self.__logger.error('run task was canceled')
                        return_code = 1
                        break
                    except Exception as exc:    # noqa: B902 - reported, then shut down
                        message = f'Caught exception in launch (see debug for traceback): {exc}'
                        self.__logger.debug(traceback.format_exc())
                        self.__logger.error(message)
                        await self._shutdown_in_loop(reason=message, due_to_sigint=False)
                        return_code = 1
            finally:
                if event_task is not None and not event_task.done():
                    event_task.cancel()
                    with contextlib.suppress(asyncio.CancelledError):
                        await event_task
                loop.set_exception_handler(previous_handler)
        return return_code

    def run(self, *, shutdown_when_idle: bool = True) -> int:
        """Run on a new event loop until idle or shut down; return the exit code."""
        loop = asyncio.new_event_loop()
        asyncio.set_event_loop(loop)
        try:
            task = loop.create_task(self.run_async(shutdown_when_idle=shutdown_when_idle))
            while True:
                try:
                    return loop.run_until_complete(task)
                except KeyboardInterrupt:
                    continue
        finally:
            with contextlib.suppress(Exception):
                loop.run_until_complete(loop.shutdown_asyncgens())
            asyncio.set_event_loop(None)
            loop.close()

    def __on_shutdown(self, event: Event, context: LaunchContext) -> None:
        self.__shutting_down = True
        self.__context._set_is_shutdown(True)
        return None

    async def _shutdown_in_loop(self, *, reason: Text, due_to_sigint: bool) -> None:
        if not self.__shutting_down:
            await self.__context.emit_event(Shutdown(reason=reason, due_to_sigint=due_to_sigint))
        self.__shutting_down = True
        self.__context._set_is_shutdown(True)

    def _shutdown(self, *, reason: Text, due_to_sigint: bool, force_sync: bool = False
                  ) -> Optional['asyncio.Future[Any]']:
        result: Optional['asyncio.Future[Any]'] = None
        if not self.__shutting_down:
            event = Shutdown(reason=reason, due_to_sigint=due_to_sigint)
            try:
                running = asyncio.get_running_loop()
            except RuntimeError:
                running = None
            if force_sync or (running is not None and running is self.__loop):
                self.__context.emit_event_sync(event)
                if not force_sync and running is not None:
                    result = running.create_future()
                    result.set_result(None)
            else:
                # another thread: the Shutdown event's handler sets the state in the loop
                self.emit_event(event)
                return None
        self.__shutting_down = True
        self.__context._set_is_shutdown(True)
        return result

    def shutdown(self, force_sync: bool = False) -> Optional['asyncio.Future[Any]']:
        """
        Shut the running launch down (nothing when not running); safe from any thread.

        Called from the launch's own loop it returns an awaitable, already done.
        """
        with self.__loop_lock:
            running = self.__loop is not None
        if running:
            return self._shutdown(reason='LaunchService.shutdown() called',
                                  due_to_sigint=False, force_sync=force_sync)
        return None
