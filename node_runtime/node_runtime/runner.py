# SPDX-License-Identifier: Apache-2.0
"""
The body of every executable's main(): start, spin, ordered teardown, one exit-code rule.

``run_nodes(factories)`` is the main() of an rclpy executable:

1. The stop handlers (node_runtime.stop) are installed, rclpy's own are not
   (SignalHandlerOptions.NO): a signal only sets the stop request.
2. rclpy.init, then the nodes are built one after the other; a stop requested meanwhile
   ends the start-up there.
3. One thread spins one executor, always with a timeout (the EventsExecutor hangs without
   one), so a stop request is seen within ``spin_timeout`` s. Nodes that tick at a fixed
   rate (``runs_in_loop``, below) are ticked by a DeadlineLoop (node_runtime.loop) in the
   same thread, which spins the executor between the deadlines.
4. Teardown, in this order, whatever ended the run: the nodes' ``stop()`` and ``close()``
   (threads, sockets, buses: their last log lines and publishes still work), the
   executor's shutdown, the nodes' destroy_node(), rclpy's shutdown.

``run_program(body)`` is the same rule for an executable without rclpy (a plain DDS or HTTP
simulator): ``body()`` does the work and returns when stopped.

``run_command(body, ros_args)`` is the main() of a command-line tool that talks ROS once
its command line is parsed (``ros2 bag record``, ``robstride_cli get``): the stop handlers,
then ``body(session)`` inside a RosSession (rclpy.init with rclpy's signal handlers off;
at the end the ordered teardown of what the session was given, then the context's
shutdown), under the exit-code rule below. The tool parses its command line before (argparse's
usage errors keep argparse's form: exit 2, the usage, one ``<prog>: error:`` line), and
body may return a status of the tool's own (robstride_cli: 3 unreachable). ``RosSession``
alone is the same start and teardown for code that opens a context of its own inside a
command (ros2cli_py's hidden node, its daemon).

Exit status, the same in every executable of the workspace:

- 0 (EXIT_STOPPED): the run ended by a stop request (SIGINT, SIGTERM) at any moment, or
  by itself (a duration, a node's ``done``).
- 2 (EXIT_CONFIG): a bad parameter or configuration (ValueError, ConfigError, rclpy's
  ParameterException, a bad ``--ros-args`` rule), with exactly one line on stderr:
  ``<prog>: configuration error: <reason>``.
- 1 (EXIT_FAILURE): any other failure, with one line on stderr:
  ``<prog>: error: <reason>``; the traceback too when NODE_RUNTIME_DEBUG is set.

A failure while a stop is being handled counts as the stop (status 0): a publisher that
loses the race against the shutdown is no failure of the program.

The periodic-node protocol (``shared_loop``): a node whose ``runs_in_loop`` is true has a
``period`` (s) and ``tick(deadline_s)``; the nodes at the first such node's period share
one DeadlineLoop and are ticked in the order given; one at another rate has its
``start_timer()`` called instead. ``busy_wait`` and ``rt_priority`` attributes, where
present, are taken as the largest of the nodes'.
"""

import os
import sys
from typing import Any, Callable, Iterable, List, Optional, Sequence, Tuple, Type

from . import stop
from .bounded_text import bounded
from .loop import DeadlineLoop, StopWait  # noqa: F401 - StopWait: part of this API

EXIT_STOPPED = 0
EXIT_FAILURE = 1
EXIT_CONFIG = 2

DEBUG_ENV = 'NODE_RUNTIME_DEBUG'    # set (non-empty): failures print their traceback too

SPIN_TIMEOUT = 0.1      # s: how late a stop request is seen without a loop


class ConfigError(ValueError):
    """A bad parameter or configuration: the executable exits 2 with this message."""


def program_name() -> str:
    """Return the name the executable was started as (its file name)."""
    return os.path.basename(sys.argv[0]) if sys.argv and sys.argv[0] else 'python'


def _one_line(exc: BaseException) -> str:
    text = ' '.join(str(exc).split()) or type(exc).__name__
    return bounded(text)


def _rcl_reason(exc: BaseException) -> str:
    # rcl's messages carry the C source positions ('..., at /project/src/rcl/...'): the
    # reason is the part before them, without the 'failed to initialize rcl: ' prefix.
    text = ' '.join(str(exc).split())
    text = text.split(', at /', 1)[0].split('. Error:', 1)[0]
    return bounded(text.replace('failed to initialize rcl: ', '', 1))


def report(prog: str, code: int, exc: BaseException, reason: Optional[str] = None) -> int:
    """Print the one stderr line of exit status `code` for `exc`; return `code`."""
    kind = 'configuration error' if code == EXIT_CONFIG else 'error'
    print(f'{prog}: {kind}: {reason or _one_line(exc)}', file=sys.stderr, flush=True)
    if code == EXIT_FAILURE and os.environ.get(DEBUG_ENV):
        import traceback
        traceback.print_exception(type(exc), exc, exc.__traceback__, file=sys.stderr)
    return code


def _config_errors(
        extra: Iterable[Type[BaseException]] = ()) -> Tuple[Type[BaseException], ...]:
    errors: List[Type[BaseException]] = [ValueError, *extra]
    if 'rclpy' in sys.modules:      # never imported here: a process without ROS stays so
        from rclpy.exceptions import NameValidationException, ParameterException
        errors += [ParameterException, NameValidationException]
    return tuple(errors)


def _install_signals(signals: str) -> None:
    if signals == 'stop':
        stop.install()
    elif signals != 'keep':
        raise ValueError(f"signals must be 'stop' or 'keep', not {signals!r}")


def run_program(body: Callable[[], Optional[int]], *, prog: Optional[str] = None,
                config_errors: Iterable[Type[BaseException]] = (),
                signals: str = 'stop') -> int:
    """
    Run ``body()`` (an executable without rclpy) under the exit-code rule; return the status.

    body returns when the stop is requested (stop.event() / stop.requested()) or when its
    work is done; its return value, if an int, is the status. It raises ConfigError (any
    ValueError, or one of ``config_errors``) for a bad configuration. A KeyboardInterrupt
    is a stop (status 0).
    signals: 'stop' installs node_runtime.stop's handlers (a signal sets the request);
    'keep' leaves the ones in place, e.g. the launcher's ``interrupt`` mode, in which a
    signal raises KeyboardInterrupt wherever a short command waits.
    """
    prog = prog or program_name()
    _install_signals(signals)
    if stop.requested():
        return EXIT_STOPPED
    try:
        code = body()
    except KeyboardInterrupt:
        return EXIT_STOPPED
    except _config_errors(config_errors) as exc:
        return EXIT_STOPPED if stop.requested() else report(prog, EXIT_CONFIG, exc)
    except Exception as exc:    # noqa: B902 - the exit-code rule: one line, status 1
        return EXIT_STOPPED if stop.requested() else report(prog, EXIT_FAILURE, exc)
    return code if isinstance(code, int) else EXIT_STOPPED


def shared_loop(nodes: Sequence[Any],
                options: Callable[[Any], Tuple[float, int]] = lambda node: (
                    getattr(node, 'busy_wait', 0.0), getattr(node, 'rt_priority', 0)),
                ) -> Optional[DeadlineLoop]:
    """
    Return the DeadlineLoop that ticks the periodic nodes of `nodes` (see above), or None.

    options(node) gives a node's (busy_wait s, rt_priority); the loop takes the largest.
    The loop's ``nodes`` attribute lists the nodes it ticks.
    """
    periodic = [n for n in nodes if getattr(n, 'runs_in_loop', False) is True]
    if not periodic:
        return None
    period = periodic[0].period
    same = [n for n in periodic if n.period == period]
    for node in periodic:
        if node not in same:
            node.start_timer()
    ticks = tuple(n.tick for n in same)
    if len(ticks) == 1:
        tick = ticks[0]
    else:
        def tick(deadline: float) -> None:
            for one in ticks:
                one(deadline)
    busy, priority = zip(*(options(n) for n in same))
    loop = DeadlineLoop(period, tick, busy_wait=max(busy), rt_priority=max(priority))
    loop.nodes = same   # type: ignore[attr-defined]
    return loop


def warm_log_caller_lookup() -> None:
    """
    Pay, before a loop starts, the one-time cost of rclpy's logger finding its caller.

    RcutilsLogger.log calls inspect.getframeinfo, whose first call maps every loaded module to
    its file (about 10 ms with rclpy, numpy and MuJoCo loaded): paid inside a 500 Hz loop, the
    first log line (a node's first rejected command) would stall it for five ticks.
    """
    import inspect
    inspect.getframeinfo(inspect.currentframe())  # type: ignore[arg-type]


def _finished(nodes: Sequence[Any], done: Callable[[], bool]) -> bool:
    return done() or any(getattr(node, 'done', False) is True for node in nodes)


def spin(nodes: Sequence[Any], executor: Any, *, done: Callable[[], bool] = lambda: False,
         loop: Optional[Callable[[Sequence[Any]], Optional[DeadlineLoop]]] = shared_loop,
         spin_timeout: float = SPIN_TIMEOUT) -> None:
    """
    Serve `nodes` on `executor` in this thread until a stop; no teardown.

    A stop is a stop request, done(), a node's ``done`` attribute or the context's
    shutdown. Nodes with a ``start()`` get it called once they are in the executor.
    loop(nodes) gives the DeadlineLoop of the periodic nodes (None: spin only).
    """
    import rclpy
    from rclpy.executors import ExternalShutdownException

    def keep_going() -> bool:
        return not stop.requested() and rclpy.ok() and not _finished(nodes, done)

    def stopping() -> bool:
        return stop.requested() or not rclpy.ok()

    for node in nodes:
        executor.add_node(node)
    for node in nodes:
        if callable(getattr(node, 'start', None)):
            node.start()
    deadline_loop = loop(nodes) if loop is not None else None
    try:
        if deadline_loop is None:
            while keep_going():
                executor.spin_once(timeout_sec=spin_timeout)
            return
        deadline_loop.prepare_thread()
        warm_log_caller_lookup()
        first = getattr(deadline_loop, 'nodes', nodes)[0]
        if deadline_loop.rt_error is not None:
            first.get_logger().warning(
                f'rt_priority {deadline_loop.rt_priority}: SCHED_FIFO not available '
                f'({deadline_loop.rt_error}); the loop runs at normal priority')
        try:
            deadline_loop.run(executor, keep_going, stopping)
        finally:
            if deadline_loop.summary() is not None and rclpy.ok():
                # Once, at exit: a stall leaves periods without a tick, which a subscriber
                # sees as stamp gaps; this tells them apart from messages lost on the way.
                first.get_logger().warning(deadline_loop.summary())
    except ExternalShutdownException:
        pass


def teardown(nodes: Sequence[Any], executor: Any = None, *, context: Any = None,
             shutdown: bool = True) -> None:
    """
    Stop, close and destroy `nodes` (last built first), shut `executor` and rclpy down.

    executor: one executor, a sequence of them, or None. context: the context to shut down
    (default rclpy's own); shutdown=False leaves it running.
    """
    import rclpy
    executors = executor if isinstance(executor, (list, tuple)) else [executor]
    for node in reversed(nodes):
        for hook in ('stop', 'close'):
            method = getattr(node, hook, None)
            if callable(method):
                _quietly(method)
    for one in reversed(executors):
        if one is not None:
            _quietly(lambda: one.shutdown(timeout_sec=1.0))
    for node in reversed(nodes):
        _quietly(node.destroy_node)
    if shutdown:
        rclpy.try_shutdown(context=context)


def _quietly(call: Callable[[], Any]) -> None:
    # A teardown step that fails must not skip the others, nor print a traceback on the way
    # out of a stop; outside a stop it is reported (one line) and the teardown goes on.
    try:
        call()
    except Exception as exc:    # noqa: B902
        if not stop.requested():
            print(f'{program_name()}: error during shutdown: {_one_line(exc)}',
                  file=sys.stderr, flush=True)


def run_nodes(factories: Sequence[Callable[[], Any]], args: Optional[List[str]] = None, *,
              prog: Optional[str] = None,
              executor: Optional[Callable[[], Any]] = None,
              loop: Optional[Callable[[Sequence[Any]], Optional[DeadlineLoop]]] = shared_loop,
              done: Callable[[], bool] = lambda: False,
              spin_timeout: float = SPIN_TIMEOUT,
              config_errors: Iterable[Type[BaseException]] = ()) -> int:
    """
    Build the nodes, spin them until a stop, tear down in order; return the exit status.

    factories: called in order (after rclpy.init) to build the nodes; the ROS arguments of
    ``args`` (default: sys.argv) apply to every node.
    executor: makes the executor (default rclpy's SingleThreadedExecutor).
    loop: makes the DeadlineLoop of the periodic nodes (default shared_loop; None: none).
    config_errors: further exception types that mean a bad configuration (exit 2).
    """
    prog = prog or program_name()
    stop.install()
    if stop.requested():
        return EXIT_STOPPED
    try:
        init_rclpy(args)
    except ConfigError as exc:
        return report(prog, EXIT_CONFIG, exc)
    nodes: List[Any] = []
    spun = None
    code = EXIT_STOPPED
    try:
        for factory in factories:
            if stop.requested():
                break
            nodes.append(factory())
        if not stop.requested():
            if executor is None:
                from rclpy.executors import SingleThreadedExecutor
                executor = SingleThreadedExecutor
            spun = executor()
            spin(nodes, spun, done=done, loop=loop, spin_timeout=spin_timeout)
    except KeyboardInterrupt:
        pass
    except _config_errors(config_errors) as exc:
        if not stop.requested():
            code = report(prog, EXIT_CONFIG, exc)
    except Exception as exc:    # noqa: B902 - the exit-code rule: one line, status 1
        if not stop.requested():
            code = report(prog, EXIT_FAILURE, exc)
    finally:
        teardown(nodes, spun)
    return code


def init_rclpy(args: Optional[List[str]] = None, context: Any = None) -> None:
    """
    rclpy.init without rclpy's signal handlers (node_runtime.stop handles the signals).

    A ``--ros-args`` rule rcl cannot parse raises ConfigError (its reason without rcl's
    source positions). context: a fresh rclpy Context (default rclpy's own).
    """
    import rclpy
    from rclpy.signals import SignalHandlerOptions
    try:
        rclpy.init(args=args, context=context, signal_handler_options=SignalHandlerOptions.NO)
    except RuntimeError as exc:     # rcl's RCLError: a --ros-args rule it cannot parse
        raise ConfigError(_rcl_reason(exc)) from None


class RosSession:
    """
    rclpy for a command-line tool: the runner's start and ordered teardown, without its spin.

    ::

        with RosSession(ros_args) as session:
            node = session.add_node(rclpy.create_node('tool', context=session.context))
            executor = session.add_executor(SingleThreadedExecutor(context=session.context))
            ...

    init() (entering) runs rclpy.init on ``context`` (default rclpy's own) with rclpy's
    signal handlers off; a bad ``--ros-args`` rule raises ConfigError. A context given
    already initialised is borrowed: it is neither initialised nor shut down here (a test or
    a program that has one and whose participant has discovered the graph already).
    close() (leaving, idempotent) is the runner's teardown of what was added: the nodes'
    ``stop()``/``close()`` hooks, the executors' shutdown, the nodes' destroy_node() (last
    added first), then the context's shutdown. It never installs signal handlers: the
    caller (run_command, a launcher) decides how a signal stops the command.
    """

    def __init__(self, args: Optional[List[str]] = None, *, context: Any = None) -> None:
        self.args = args
        self.context = context
        self.nodes: List[Any] = []
        self.executors: List[Any] = []
        self._owned = False
        self._open = False

    def init(self) -> 'RosSession':
        """Initialise the context (unless borrowed); return the session."""
        if self._open:
            return self
        borrowed = self.context is not None and self.context.ok()
        if not borrowed:
            if self.context is None:
                from rclpy.utilities import get_default_context
                self.context = get_default_context()
            init_rclpy(self.args, self.context)
            self._owned = True
        self._open = True
        return self

    def add_node(self, node: Any) -> Any:
        """Tear `node` down with the session (stop/close hooks, destroy_node); return it."""
        self.nodes.append(node)
        return node

    def add_executor(self, executor: Any) -> Any:
        """Shut `executor` down with the session, before the nodes are destroyed; return it."""
        self.executors.append(executor)
        return executor

    def close(self) -> None:
        """Tear down in order what was added and shut an owned context down (idempotent)."""
        if not self._open:
            return
        self._open = False
        nodes, executors = self.nodes, self.executors
        self.nodes, self.executors = [], []
        teardown(nodes, executors, context=self.context, shutdown=self._owned)

    def __enter__(self) -> 'RosSession':
        return self.init()

    def __exit__(self, *exc: Any) -> None:
        self.close()


def run_command(body: Callable[[RosSession], Optional[int]],
                ros_args: Optional[List[str]] = None, *, prog: Optional[str] = None,
                context: Any = None, config_errors: Iterable[Type[BaseException]] = (),
                signals: str = 'stop') -> int:
    """
    Run ``body(session)`` of a command-line tool in a RosSession; return the exit status.

    Call it once the command line is parsed (argparse's errors keep argparse's form).
    ros_args: rclpy's arguments (e.g. ['prog', '--ros-args', ...]; None: sys.argv, as
    rclpy.init takes it). context: as RosSession's (an initialised one is borrowed).
    body returns the status (None: 0) or raises: ConfigError/ValueError (or one of
    ``config_errors``) exits 2, any other error 1, each with one stderr line; a stop (or a
    KeyboardInterrupt) at any moment exits 0 after the teardown. signals: as
    run_program's ('keep' for a launcher in interrupt mode).
    """
    def session_body() -> Optional[int]:
        if stop.requested():
            return EXIT_STOPPED
        with RosSession(ros_args, context=context) as session:
            return body(session)
    return run_program(session_body, prog=prog, config_errors=config_errors, signals=signals)
