# SPDX-License-Identifier: Apache-2.0
"""
The exit-code rule every executable of the workspace follows (node_runtime.runner uses it).

- 0 (EXIT_STOPPED): the run ended by a stop request (SIGINT, SIGTERM) at any moment, or
  by itself (a duration, a node's ``done``).
- 2 (EXIT_CONFIG): a bad parameter or configuration (ValueError, ConfigError, rclpy's
  ParameterException, a bad ``--ros-args`` rule), with exactly one line on stderr:
  ``<prog>: configuration error: <reason>``.
- 1 (EXIT_FAILURE): any other failure, with one line on stderr:
  ``<prog>: error: <reason>``; the traceback too when NODE_RUNTIME_DEBUG is set.

A failure while a stop is being handled counts as the stop (status 0). ``run_program(body)``
applies the rule to an executable without rclpy.
"""

import os
import sys
from typing import Callable, Iterable, List, Optional, Tuple, Type

from . import stop
from .bounded_text import bounded

EXIT_STOPPED = 0
EXIT_FAILURE = 1
EXIT_CONFIG = 2

DEBUG_ENV = 'NODE_RUNTIME_DEBUG'    # set (non-empty): failures print their traceback too


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
