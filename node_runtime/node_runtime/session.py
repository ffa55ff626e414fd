# SPDX-License-Identifier: Apache-2.0
"""
rclpy's start and ordered teardown (node_runtime.runner), and the same for command-line tools.

``teardown(nodes, executor)``: the nodes' ``stop()`` and ``close()`` hooks (threads, sockets,
buses: their last log lines and publishes still work), the executors' shutdown, the nodes'
destroy_node(), rclpy's shutdown; a failing step never skips the others.

``run_command(body, ros_args)`` is the main() of a command-line tool that talks ROS once its
command line is parsed (``ros2 bag record``, ``robstride_cli get``): the stop handlers, then
``body(session)`` inside a RosSession (rclpy.init with rclpy's signal handlers off; at the
end the ordered teardown of what the session was given, then the context's shutdown),
under the exit-code rule (node_runtime.exit_codes). ``RosSession`` alone is the same start
and teardown for code that opens a context of its own inside a command (ros2cli_py's hidden
node, its daemon).
"""

import sys
from typing import Any, Callable, Iterable, List, Optional, Sequence, Type

from . import stop
from .exit_codes import _one_line, _rcl_reason, ConfigError, EXIT_STOPPED, program_name
from .exit_codes import run_program


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
