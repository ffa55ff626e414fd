# SPDX-License-Identifier: Apache-2.0
"""ExecuteLocal: run a process on this machine and manage it until it exits."""

import asyncio
import functools
import os
import pty
import signal
import subprocess
from typing import (Any, Callable, cast, Dict, List, Optional, Set, Text, Type, TYPE_CHECKING,
                    Union)

import launch.logging

from .emit_event import EmitEvent
from .opaque_function import OpaqueFunction
from .timer_action import TimerAction
from ..action import Action
from ..descriptions import Executable
from ..event import Event
from ..event_handler import EventHandler
from ..event_handlers.on_action_event_base import OnActionEventBase
from ..event_handlers.on_shutdown import OnShutdown
from ..events import matchers
from ..events import Shutdown
from ..events.process import ProcessExited
from ..events.process import ProcessIO
from ..events.process import ProcessStarted
from ..events.process import ProcessStderr
from ..events.process import ProcessStdout
from ..events.process import ShutdownProcess
from ..events.process import SignalProcess
from ..launch_description_entity import LaunchDescriptionEntity
from ..some_entities_type import SomeEntitiesType
from ..some_substitutions_type import SomeSubstitutionsType
from ..substitution import Substitution
from ..substitutions import LaunchConfiguration
from ..utilities import normalize_to_list_of_substitutions, perform_substitutions
from ..utilities.type_utils import perform_typed_substitution

if TYPE_CHECKING:
    from ..launch_context import LaunchContext


class _Protocol(asyncio.SubprocessProtocol):
    """Forwards a child's output as ProcessIO events; ``complete`` gives its exit code."""

    def __init__(self, action: 'ExecuteLocal', context: 'LaunchContext',
                 event_args: Dict[str, Any], pipes: Set[int]) -> None:
        self.__action = action
        self.__context = context
        self.__event_args = event_args
        self.__pending: Set[Union[int, str]] = set(pipes) | {'exit'}
        self.transport: Optional[asyncio.SubprocessTransport] = None
        self.complete: 'asyncio.Future[int]' = asyncio.get_running_loop().create_future()

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        # the transport of a subprocess protocol is a subprocess transport
        subprocess_transport = cast(asyncio.SubprocessTransport, transport)
        self.transport = subprocess_transport
        pid = subprocess_transport.get_pid()
        self.__event_args['pid'] = pid
        self.__action._started(subprocess_transport, self)
        # before any output event: handlers see the start first
        self.__context.emit_event_sync(ProcessStarted(**self.__event_args))

    def pipe_data_received(self, fd: int, data: bytes) -> None:
        event = ProcessStdout if fd == 1 else ProcessStderr
        self.__context.emit_event_sync(event(text=data, **self.__event_args))

    def pipe_connection_lost(self, fd: int, exc: Optional[Exception]) -> None:
        self.__done(fd)

    def process_exited(self) -> None:
        self.__done('exit')

    def __done(self, what: Union[int, str]) -> None:
        self.__pending.discard(what)
        if not self.__pending and not self.complete.done() and self.transport is not None:
            # the process has exited (and its pipes closed): its exit code is known
            self.complete.set_result(cast(int, self.transport.get_returncode()))


class _TtyReader(asyncio.Protocol):
    """Reads the master side of a pseudo terminal (emulate_tty) into the protocol."""

    def __init__(self, protocol: _Protocol, fd: int) -> None:
        self.__protocol = protocol
        self.__fd = fd

    def data_received(self, data: bytes) -> None:
        self.__protocol.pipe_data_received(self.__fd, data)

    def connection_lost(self, exc: Optional[Exception]) -> None:
        self.__protocol.pipe_connection_lost(self.__fd, None)


class ExecuteLocal(Action):
    """
    Runs the process an Executable describes, with upstream's process management.

    Output: ``output`` 'screen', 'log', 'both', 'own_log', 'full' or a dict (see
    launch.logging.get_output_loggers); each line is logged as ``output_format``, by
    default ``[<name>-N] <line>``. The environment variable OVERRIDE_LAUNCH_PROCESS_OUTPUT
    overrides ``output``.

    Shutdown (the launch's, or a ShutdownProcess event): SIGINT (unless Ctrl-C in a
    terminal sent it already), after ``sigterm_timeout`` s SIGTERM, after
    ``sigkill_timeout`` s more SIGKILL. ``on_exit``: entities, or a callable
    ``(event, context)``, when the process exits. ``respawn``: start it again when it
    exits (after ``respawn_delay`` s; at most ``respawn_max_retries`` times, -1 no limit)
    unless the launch is shutting down.
    """

    def __init__(self, *, process_description: Executable,
                 shell: bool = False,
                 sigterm_timeout: SomeSubstitutionsType = LaunchConfiguration(
                     'sigterm_timeout', default=5),
                 sigkill_timeout: SomeSubstitutionsType = LaunchConfiguration(
                     'sigkill_timeout', default=5),
                 emulate_tty: bool = False,
                 output: Union[SomeSubstitutionsType, Dict[Text, Any]] = 'log',
                 output_format: Text = '[{this.process_description.final_name}] {line}',
                 cached_output: bool = False,
                 log_cmd: bool = False,
                 on_exit: Optional[Union[SomeEntitiesType, Callable[..., Optional[
                     SomeEntitiesType]]]] = None,
                 respawn: Union[bool, SomeSubstitutionsType] = False,
                 respawn_delay: Optional[float] = None,
                 respawn_max_retries: int = -1,
                 **kwargs: Any) -> None:
        """Create the action."""
        super().__init__(**kwargs)
        self.__process_description = process_description
        self.__shell = shell
        self.__sigterm_timeout = normalize_to_list_of_substitutions(
            str(sigterm_timeout) if isinstance(sigterm_timeout, (int, float))
            else sigterm_timeout)
        self.__sigkill_timeout = normalize_to_list_of_substitutions(
            str(sigkill_timeout) if isinstance(sigkill_timeout, (int, float))
            else sigkill_timeout)
        self.__emulate_tty = emulate_tty
        override = os.environ.get('OVERRIDE_LAUNCH_PROCESS_OUTPUT')
        output_arg = override if override else output
        self.__output: Union[List[Substitution], Dict[Text, Any]] = output_arg \
            if isinstance(output_arg, dict) else normalize_to_list_of_substitutions(output_arg)
        self.__output_format = output_format
        self.__cached_output = cached_output
        self.__log_cmd = log_cmd
        self.__on_exit = on_exit
        self.__respawn = respawn
        self.__respawn_delay = respawn_delay
        self.__respawn_max_retries = respawn_max_retries
        self.__respawn_retries = 0
        self.__process_event_args: Optional[Dict[str, Any]] = None
        self._subprocess_transport: Optional[asyncio.SubprocessTransport] = None
        self._subprocess_protocol: Optional[_Protocol] = None
        self.__completed_future: Optional['asyncio.Future[Any]'] = None
        self.__shutdown_future: Optional['asyncio.Future[Any]'] = None
        self.__sigterm_timer: Optional[TimerAction] = None
        self.__sigkill_timer: Optional[TimerAction] = None
        self.__buffers: Dict[int, str] = {1: '', 2: ''}
        self.__cache: Dict[int, List[str]] = {1: [], 2: []}
        self.__executed = False
        self.__logger = launch.logging.get_logger(__name__)
        self.__stdout_logger = self.__stderr_logger = self.__logger

    # properties
    @property
    def process_description(self) -> Executable:
        """Getter for the process description."""
        return self.__process_description

    @property
    def shell(self) -> bool:
        """Getter for shell."""
        return self.__shell

    @property
    def emulate_tty(self) -> bool:
        """Getter for emulate_tty."""
        return self.__emulate_tty

    @property
    def sigterm_timeout(self) -> List[Substitution]:
        """Getter for sigterm_timeout."""
        return self.__sigterm_timeout

    @property
    def sigkill_timeout(self) -> List[Substitution]:
        """Getter for sigkill_timeout."""
        return self.__sigkill_timeout

    @property
    def output(self) -> Union[List[Substitution], Dict[Text, Any]]:
        """Getter for output."""
        return self.__output

    @property
    def process_details(self) -> Optional[Dict[str, Any]]:
        """Return name, cmd, cwd, env and pid of the process (None before it is prepared)."""
        return self.__process_event_args

    @property
    def return_code(self) -> Optional[int]:
        """Return the process's exit code, None while it runs or before it started."""
        if self._subprocess_transport is None:
            return None
        return self._subprocess_transport.get_returncode()

    def get_sub_entities(self) -> List[LaunchDescriptionEntity]:
        """Return the on_exit entities, if they are entities."""
        return list(self.__on_exit) if isinstance(self.__on_exit, list) else []

    def get_stdout(self) -> Text:
        """Return the cached stdout (``cached_output=True`` only)."""
        if not self.__cached_output:
            raise RuntimeError('cached output must be true to be able to get stdout, proc '
                               f"'{self.__process_description.name}'")
        return ''.join(self.__cache[1])

    def get_stderr(self) -> Text:
        """Return the cached stderr (``cached_output=True`` only)."""
        if not self.__cached_output:
            raise RuntimeError('cached output must be true to be able to get stderr, proc '
                               f"'{self.__process_description.name}'")
        return ''.join(self.__cache[2])

    # shutdown and signals
    def _shutdown_process(self, context: 'LaunchContext', *, send_sigint: bool
                          ) -> Optional[List[LaunchDescriptionEntity]]:
        if self.__shutdown_future is None or self.__shutdown_future.done():
            return None
        if self.__completed_future is None or self.__completed_future.done():
            self.__shutdown_future.set_result(None)
            return None
        if self._subprocess_transport is None:
            # not started yet: shut it down as soon as it is
            context.register_event_handler(self.__own_event_handler(
                ProcessStarted,
                lambda event, ctx: self._shutdown_process(ctx, send_sigint=send_sigint),
                handle_once=True))
            return None
        self.__shutdown_future.set_result(None)
        assert self.__process_event_args is not None    # prepared before it started
        context.extend_locals({'process_name': self.__process_event_args['name']})
        actions: List[LaunchDescriptionEntity] = self.__escalation_timers(context)
        if send_sigint:
            actions.append(EmitEvent(event=SignalProcess(
                signal_number=signal.SIGINT, process_matcher=matchers.matches_action(self))))
        return actions

    def __escalation_timers(self, context: 'LaunchContext') -> List[LaunchDescriptionEntity]:
        assert self.__process_event_args is not None    # prepared before it started
        name = self.__process_event_args['name']
        sigterm = float(perform_substitutions(context, self.__sigterm_timeout))
        sigkill = float(perform_substitutions(context, self.__sigkill_timeout))

        def complain(
            context: 'LaunchContext', received: str, escalating: str, timeout: float
        ) -> None:
            self.__logger.error(f"process[{name}] failed to terminate '{timeout}' seconds after "
                                f"receiving '{received}', escalating to '{escalating}'")

        def signal_event(signal_number: Union[int, Text]) -> EmitEvent:
            return EmitEvent(event=SignalProcess(
                signal_number=signal_number, process_matcher=matchers.matches_action(self)))

        self.__sigterm_timer = TimerAction(period=sigterm, cancel_on_shutdown=False, actions=[
            OpaqueFunction(function=complain, args=('SIGINT', 'SIGTERM', sigterm)),
            signal_event(signal.SIGTERM)])
        self.__sigkill_timer = TimerAction(
            period=sigterm + sigkill, cancel_on_shutdown=False, actions=[
                OpaqueFunction(function=complain, args=('SIGTERM', 'SIGKILL', sigkill)),
                signal_event('SIGKILL')])
        return [self.__sigterm_timer, self.__sigkill_timer]

    def __on_shutdown(self, event: Event, context: 'LaunchContext') -> Optional[SomeEntitiesType]:
        assert isinstance(event, Shutdown)
        return self._shutdown_process(
            context, send_sigint=not event.due_to_sigint or context.noninteractive)

    def __on_shutdown_process_event(
        self, context: 'LaunchContext'
    ) -> Optional[List[LaunchDescriptionEntity]]:
        event = context.locals.event
        if not event.process_matcher(self):
            return None
        return self._shutdown_process(context, send_sigint=True)

    def __on_signal_process_event(self, context: 'LaunchContext') -> None:
        event = context.locals.event
        if not event.process_matcher(self):
            return None
        name = self.__process_event_args['name'] if self.__process_event_args else '?'
        transport = self._subprocess_transport
        if transport is None or transport.get_returncode() is not None:
            self.__logger.debug(
                f"signal '{event.signal_name}' not sent to '{name}' because it has closed "
                'already')
            return None
        self.__logger.info(f"sending signal '{event.signal_name}' to process[{name}]")
        try:
            if event.signal_name == 'SIGKILL':
                transport.kill()
            else:
                transport.send_signal(event.signal)
        except ProcessLookupError:
            self.__logger.debug(
                f"signal '{event.signal_name}' not sent to '{name}' because it has closed "
                'already')
        return None

    # output
    def __own_event_handler(
        self, event_cls: Type[Event],
        on_event: Union[SomeEntitiesType, Callable[..., Optional[SomeEntitiesType]]],
        **kwargs: Any
    ) -> OnActionEventBase:
        # OnProcessStart/IO/Exit(target_action=self) without importing them: they import
        # this module for their target class
        return OnActionEventBase(action_matcher=self, on_event=on_event,
                                 target_event_cls=event_cls, target_action_cls=ExecuteLocal,
                                 **kwargs)

    def __on_io(self, event: Event, context: 'LaunchContext') -> None:
        assert isinstance(event, ProcessIO)
        if event.from_stdout or event.from_stderr:
            self.__on_output(event)

    def __on_output(self, event: ProcessIO) -> None:
        fd = 1 if event.from_stdout else 2
        logger = self.__stdout_logger if fd == 1 else self.__stderr_logger
        text = event.text.decode(errors='replace')
        if self.__cached_output:
            self.__cache[fd].append(text)
        text = self.__buffers[fd] + text
        *lines, rest = text.split('\n')
        self.__buffers[fd] = rest
        for line in lines:
            logger.info(self.__output_format.format(line=line.rstrip('\r'), this=self))

    def __flush_buffers(self, event: Event, context: 'LaunchContext') -> None:
        for fd, logger in ((1, self.__stdout_logger), (2, self.__stderr_logger)):
            if self.__buffers[fd]:
                logger.info(self.__output_format.format(line=self.__buffers[fd], this=self))
                self.__buffers[fd] = ''
        return None

    def _started(self, transport: asyncio.SubprocessTransport, protocol: _Protocol) -> None:
        self._subprocess_transport = transport
        self._subprocess_protocol = protocol
        self.__logger.info(f'process started with pid [{transport.get_pid()}]')

    # running
    async def __execute_process(self, context: 'LaunchContext') -> None:
        args = self.__process_event_args
        assert args is not None
        cmd, cwd, env = args['cmd'], args['cwd'], args['env']
        if self.__log_cmd:
            shown = ' '.join(part for part in cmd if part.strip())
            self.__logger.info(f"process details: cmd='{shown}', cwd='{cwd}', "
                               f"custom_env?={'True' if env is not None else 'False'}")
        emulate_tty = self.__emulate_tty
        if 'emulate_tty' in context.launch_configurations:
            emulate_tty = perform_typed_substitution(
                context, context.launch_configurations['emulate_tty'], bool)
        loop = asyncio.get_running_loop()
        ttys: List[int] = []
        try:
            if emulate_tty:
                out_master, out_slave = pty.openpty()
                err_master, err_slave = pty.openpty()
                ttys = [out_master, out_slave, err_master, err_slave]
                protocol = _Protocol(self, context, args, {1, 2})
                stdout: Any = out_slave
                stderr: Any = err_slave
            else:
                protocol = _Protocol(self, context, args, {1, 2})
                stdout = stderr = subprocess.PIPE
            options = {'stdin': None, 'stdout': stdout, 'stderr': stderr, 'cwd': cwd, 'env': env}
            if self.__shell:
                transport, _ = await loop.subprocess_shell(lambda: protocol, ' '.join(cmd),
                                                           **options)
            else:
                transport, _ = await loop.subprocess_exec(lambda: protocol, *cmd, **options)
            if emulate_tty:
                os.close(out_slave)
                os.close(err_slave)
                ttys = []
                for master, fd in ((out_master, 1), (err_master, 2)):
                    await loop.connect_read_pipe(functools.partial(_TtyReader, protocol, fd),
                                                 os.fdopen(master, 'rb', buffering=0))
        except Exception as e:  # noqa: B902 - an executable that cannot start: one line
            for fd in ttys:
                os.close(fd)
            self.__logger.error(f'exception occurred while executing process: '
                                f'{type(e).__name__}: {e}')
            self.__cleanup()
            return
        pid = transport.get_pid()
        returncode = await protocol.complete
        if returncode == 0:
            self.__logger.info(f'process has finished cleanly [pid {pid}]')
        else:
            shown = ' '.join(part for part in cmd if part.strip())
            self.__logger.error(
                f"process has died [pid {pid}, exit code {returncode}, cmd '{shown}'].")
        await context.emit_event(ProcessExited(returncode=returncode, **args))
        transport.close()
        respawn = perform_typed_substitution(context, self.__respawn, bool)
        if respawn and not context.is_shutdown and self.__shutdown_future is not None \
                and not self.__shutdown_future.done() and (
                    self.__respawn_max_retries < 0
                    or self.__respawn_retries < self.__respawn_max_retries):
            self.__respawn_retries += 1
            if self.__respawn_delay is not None and self.__respawn_delay > 0.0:
                await asyncio.wait([self.__shutdown_future], timeout=self.__respawn_delay)
            if not self.__shutdown_future.done() and not context.is_shutdown:
                self._subprocess_transport = None
                loop.create_task(self.__execute_process(context))
                return
        self.__cleanup()

    def __cleanup(self) -> None:
        for timer in (self.__sigterm_timer, self.__sigkill_timer):
            if timer is not None:
                timer.cancel()
        if self.__completed_future is not None and not self.__completed_future.done():
            self.__completed_future.set_result(None)

    def prepare(self, context: 'LaunchContext') -> None:
        """Perform the substitutions of the process description."""
        self.__process_description.prepare(context, self)
        self.__process_event_args = {
            'action': self,
            'name': self.__process_description.final_name,
            'cmd': self.__process_description.final_cmd,
            'cwd': self.__process_description.final_cwd,
            'env': self.__process_description.final_env,
        }

    def execute(self, context: 'LaunchContext') -> Optional[List[LaunchDescriptionEntity]]:
        """Register this process's event handlers and start it."""
        if self.__executed:
            name = self.__process_description.final_name
            raise RuntimeError(f"ExecuteLocal action '{name}': executed more than once: "
                               f'{self.describe()}')
        self.prepare(context)
        name = self.__process_description.final_name
        assert name is not None     # prepare named it
        self.__executed = True
        if context.is_shutdown:
            return None
        handlers = [
            EventHandler(matcher=lambda event: isinstance(event, ShutdownProcess),
                         entities=OpaqueFunction(function=self.__on_shutdown_process_event)),
            EventHandler(matcher=lambda event: isinstance(event, SignalProcess),
                         entities=OpaqueFunction(function=self.__on_signal_process_event)),
            self.__own_event_handler(ProcessIO, self.__on_io),
            OnShutdown(on_shutdown=self.__on_shutdown),
            self.__own_event_handler(ProcessExited, self.__flush_buffers),
        ]
        if self.__on_exit is not None:
            handlers.insert(-1, self.__own_event_handler(ProcessExited, self.__on_exit))
        for handler in handlers:
            context.register_event_handler(handler)
        try:
            loop = context.asyncio_loop
            assert loop is not None     # executed in a running launch
            self.__completed_future = loop.create_future()
            self.__shutdown_future = loop.create_future()
            # launch waits for the process even if an error interrupts the visit that
            # would have collected this action's future: no child is left behind
            context.add_completion_future(self.__completed_future)
            self.__logger = launch.logging.get_logger(name)
            output = self.__output if isinstance(self.__output, dict) \
                else perform_substitutions(context, self.__output)
            self.__stdout_logger, self.__stderr_logger = \
                launch.logging.get_output_loggers(name, output)
            loop.create_task(self.__execute_process(context))
        except Exception:
            for handler in handlers:
                context.unregister_event_handler(handler)
            raise
        return None

    def get_asyncio_future(self) -> Optional['asyncio.Future[Any]']:
        """Return the future done when the process has exited (and is not respawned)."""
        return self.__completed_future
