# SPDX-License-Identifier: Apache-2.0
"""
Stopping on SIGINT/SIGTERM at any moment, start-up and imports included.

An executable is a small launcher script whose first statements route SIGINT and SIGTERM
to a list (the builtin `_signal`, so nothing is imported before) and then call launch():
from then on a signal only sets the process's stop request, never raises KeyboardInterrupt
in the middle of an import or a callback and never kills the process. The program checks
requested() (or waits on event()) before creating anything and in its loops, and then shuts
down in order while everything is still valid. rclpy's own signal handlers are not
installed (SignalHandlerOptions.NO): they would shut the context down under running
callbacks. This module imports nothing heavy; threading only when event() is first used.
"""

# `_signal` is the interpreter's built-in module behind `signal`: importing it costs nothing,
# while `signal` builds its enums first (milliseconds, far more on a loaded machine).
import _signal
from types import FrameType
from typing import Callable, NoReturn, Optional, Sequence, TYPE_CHECKING

if TYPE_CHECKING:     # threading is imported by event() only, on first use
    import threading

STOP_SIGNALS = (_signal.SIGINT, _signal.SIGTERM)

# The first entry: the signal number that asked (None: request()).
_requested: list[Optional[int]] = []
# threading.Event, made by event() on first use.
_event: Optional['threading.Event'] = None
# (os.write, fd): the pipe to event()'s relay thread, once it exists.
_wake: Optional[tuple[Callable[[int, bytes], int], int]] = None


def _on_signal(signum: int, frame: Optional[FrameType]) -> None:
    # Only a flag and a byte: the handler runs between two bytecodes of whatever the main
    # thread is doing, so it must not tear anything down itself, nor take a lock. The main
    # thread may be inside the Event's own wait() holding its lock, and Event.set() here
    # would wait for that lock forever (the process then ignores every further signal).
    # The relay thread sets the Event instead.
    if not _requested:
        _requested.append(signum)
    wake = _wake
    if wake is not None:
        write, fd = wake
        try:
            write(fd, b'\0')
        except OSError:     # the pipe is full: bytes are waiting for the relay already
            pass


def install(early: Sequence[int] = ()) -> None:
    """
    Route SIGINT and SIGTERM to the stop request (main thread only; idempotent).

    ``early`` lists signals a launcher's first handlers noted before this ran: the first
    one counts as a request. Outside the main thread the caller's handlers stay.
    """
    try:
        for signum in STOP_SIGNALS:
            _signal.signal(signum, _on_signal)
    except ValueError:      # not the main thread
        pass
    for signum in list(early)[:1]:
        request(signum)


def request(signum: Optional[int] = None) -> None:
    """Ask the running executable to stop, as a signal would (not from a signal handler)."""
    if not _requested:
        _requested.append(signum)
    ev = _event
    if ev is not None:
        ev.set()


def requested() -> bool:
    """Return True once SIGINT or SIGTERM arrived (or request() was called)."""
    return bool(_requested)


def signum() -> Optional[int]:
    """Return the signal that asked first (None: none yet, or request() without one)."""
    return _requested[0] if _requested else None


def event() -> 'threading.Event':
    """
    Return a threading.Event that is set once a stop is requested.

    For loops that wait (``stop.wait(timeout)``) and code that takes a stop Event.
    """
    global _event, _wake
    if _event is None:
        import os
        import threading
        _event = threading.Event()
        read_fd, write_fd = os.pipe()
        os.set_blocking(write_fd, False)    # a handler never blocks on a full pipe
        threading.Thread(target=_relay, args=(os.read, read_fd, _event),
                         name='stop_request', daemon=True).start()
        _wake = (os.write, write_fd)
    if _requested:          # a request that came before the relay could hear it
        _event.set()
    return _event


def _relay(read: Callable[[int, int], bytes], fd: int, event: 'threading.Event') -> None:
    read(fd, 1)             # returns once a signal handler wrote its byte
    event.set()


def watch(stop: Optional['threading.Event'] = None) -> 'threading.Event':
    """
    Return the Event a loop watches: ``stop`` if given, else event() after install().

    For a main() that launch() passes its stop Event to, and that installs the handlers
    itself when called without one (tests, ``python -m``).
    """
    if stop is not None:
        return stop
    install()
    return event()


def install_interrupt(exception: Callable[[], BaseException] = KeyboardInterrupt) -> None:
    """
    Make SIGINT and SIGTERM raise ``exception`` wherever the main thread is (main only).

    For short-lived commands that unwind instead of polling a request: the first signal
    raises, later ones are ignored so the unwinding is not interrupted again.
    """
    def _raise(signum: int, frame: Optional[FrameType]) -> None:
        for sig in STOP_SIGNALS:
            _signal.signal(sig, _signal.SIG_IGN)
        if not _requested:      # noted first: a C extension may turn the exception into another
            _requested.append(signum)
        raise exception()
    for sig in STOP_SIGNALS:
        _signal.signal(sig, _raise)


def launch(target: str, early: Sequence[int] = (), *, argv: bool = False, stop: bool = False,
           interrupt: bool = False, hard_exit: bool = False) -> NoReturn:
    """
    Body of a launcher script: handlers, then site, then run `target`; never returns.

    target: 'package.module' (its main()) or 'package.module:function'.
    early: the signals the launcher's first handlers noted (see install()); a stop
    requested before the import ends the process with status 0 at once.
    argv: call the function with sys.argv[1:] (else with no argument).
    stop: pass event() as the keyword argument ``stop``.
    interrupt: a short-lived command instead of a loop: from the import on, a signal
    raises KeyboardInterrupt wherever the command waits, and that exits 0.
    hard_exit: leave with os._exit() once the function returned (streams flushed): the
    work is done and closed, and the interpreter's finalization would restore the default
    handlers, so a signal arriving then would kill the process. A SystemExit the function
    raises (argparse's --help, usage errors) gives its status; KeyboardInterrupt (raised by
    a caller's own handler, not ours) gives 0.
    """
    install(early)
    import sys
    if sys.flags.no_site:
        # The launchers run `python3 -S`: the interpreter reaches their first line in
        # ~10 ms instead of ~70-300 ms (site: the venv's site-packages and their .pth
        # files), so the handlers are in place that much earlier; do site's work now.
        import site
        site.main()
    if requested():
        _leave(0, hard_exit)
    import importlib
    module, _, function = target.partition(':')
    args = (sys.argv[1:],) if argv else ()
    kwargs = {'stop': event()} if stop else {}
    if interrupt:
        install_interrupt()
    try:
        main = getattr(importlib.import_module(module), function or 'main')
        code = main(*args, **kwargs)
    except KeyboardInterrupt:
        if not (interrupt or hard_exit):
            raise
        code = 0
    except SystemExit as exc:
        if not hard_exit:
            raise
        code = exc.code if isinstance(exc.code, int) else (0 if exc.code is None else 2)
    except Exception:   # noqa: B902 - decided by whether a stop was asked for, below
        # interrupt mode: the KeyboardInterrupt a signal raises can land inside a C extension
        # (rclpy's module initialisation turns it into ImportError 'initialization failed',
        # pybind11 into a TypeError while converting a callback's message). Asked to stop,
        # the stop is what happened: status 0 without a traceback, as for any other moment.
        if not (interrupt and requested()):
            raise
        code = 0
    _leave(code, hard_exit)


_LAUNCHER = ('import _signal\n'
             'E = []\n'
             '_signal.signal(_signal.SIGINT, lambda s, f: E.append(s))\n'
             '_signal.signal(_signal.SIGTERM, lambda s, f: E.append(s))\n'
             'from node_runtime.stop import launch\n'
             'launch({target!r}, E{options})\n')
_LAUNCH_OPTIONS = ('argv', 'stop', 'interrupt', 'hard_exit')


def launcher_source(target: str, **options: object) -> str:
    """
    Return a launcher script's text, for a child process started ``python3 -S -c <text>``.

    The same first statements as a launcher file (handlers before any import), then
    launch(target, early, **options) (its keyword options: argv, stop, interrupt,
    hard_exit). For a program that starts a helper process of its own (ros2cli_py's
    daemon) without an installed script for it.
    """
    unknown = sorted(set(options) - set(_LAUNCH_OPTIONS))
    if unknown:
        raise TypeError(f'launch() has no option {", ".join(unknown)}')
    text = ''.join(f', {name}={bool(options[name])!r}' for name in _LAUNCH_OPTIONS
                   if name in options)
    return _LAUNCHER.format(target=target, options=text)


def _leave(code: Optional[int], hard_exit: bool) -> NoReturn:
    import sys
    if not hard_exit:
        sys.exit(code)
    import os
    sys.stdout.flush()
    sys.stderr.flush()
    os._exit(code or 0)
