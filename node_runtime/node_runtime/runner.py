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

Exit status: 0 on a stop, 2 on a bad configuration, 1 on any other failure, each with one
stderr line; the rule is node_runtime.exit_codes'.

The parts live in their own modules, all re-exported here: the exit-code rule
(``exit_codes``), the periodic-node contract ``PeriodicNode`` and ``shared_loop``
(``periodic``), rclpy's start and teardown, ``RosSession`` and ``run_command``
(``session``); this module spins.

The periodic-node protocol (``shared_loop``): a node whose ``runs_in_loop`` is true has a
``period`` (s) and ``tick(deadline_s)``; the nodes at the first such node's period share
one DeadlineLoop and are ticked in the order given; one at another rate has its
``start_timer()`` called instead. ``busy_wait`` and ``rt_priority`` attributes, where
present, are taken as the largest of the nodes'.
"""

from typing import Any, Callable, Iterable, List, Optional, Sequence, Type

from . import stop
from .exit_codes import _config_errors, _install_signals, _one_line, _rcl_reason  # noqa: F401
from .exit_codes import ConfigError, DEBUG_ENV, EXIT_CONFIG, EXIT_FAILURE, EXIT_STOPPED
from .exit_codes import program_name, report, run_program
from .loop import DeadlineLoop, StopWait  # noqa: F401 - StopWait: part of this API
from .periodic import is_periodic, periodic_nodes, PeriodicNode, shared_loop  # noqa: F401
from .periodic import warm_log_caller_lookup
from .session import _quietly, init_rclpy, RosSession, run_command, teardown  # noqa: F401

__all__ = ['ConfigError', 'DEBUG_ENV', 'DeadlineLoop', 'EXIT_CONFIG', 'EXIT_FAILURE',
           'EXIT_STOPPED', 'PeriodicNode', 'RosSession', 'SPIN_TIMEOUT', 'StopWait',
           'init_rclpy', 'is_periodic', 'periodic_nodes', 'program_name', 'report',
           'run_command', 'run_nodes', 'run_program', 'shared_loop', 'spin', 'teardown',
           'warm_log_caller_lookup']

SPIN_TIMEOUT = 0.1      # s: how late a stop request is seen without a loop


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
