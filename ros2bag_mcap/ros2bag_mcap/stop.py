# SPDX-License-Identifier: Apache-2.0
"""
Stopping on SIGINT/SIGTERM at any moment, start-up and imports included.

The executables are launcher scripts (bin/, run with `python3 -S`) whose first statement
calls launch(): from then on SIGINT and SIGTERM only set a stop request that the recorder,
the player and the Foxglove server check in their loops (then close the bag / server and
exit 0); they never raise KeyboardInterrupt inside an import or kill the process. rclpy's
own handlers are not installed (SignalHandlerOptions.NO). This module imports nothing heavy.
"""

# `_signal` is the interpreter's built-in module behind `signal`: importing it costs nothing.
import _signal

_requested = []


def _on_signal(signum, frame):
    if not _requested:
        _requested.append(signum)


def install():
    """Route SIGINT and SIGTERM to the stop request (main thread only; idempotent)."""
    try:
        for sig in (_signal.SIGINT, _signal.SIGTERM):
            _signal.signal(sig, _on_signal)
    except ValueError:      # not the main thread: the caller's handlers stay
        pass


def requested():
    """Return True once SIGINT or SIGTERM arrived (or request() was called)."""
    return bool(_requested)


def request():
    """Ask the running command to stop, as a signal would."""
    _requested.append(None)


def launch(module):
    """Body of a launcher script: handlers first, then site, then `module`.main(argv)."""
    install()
    import sys
    if sys.flags.no_site:
        import site
        site.main()
    import importlib
    try:
        code = importlib.import_module(module).main(sys.argv[1:])
    except KeyboardInterrupt:   # a caller's own handler raised it (not ours)
        code = 0
    except SystemExit as exc:   # argparse's --help and usage errors
        code = exc.code if isinstance(exc.code, int) else (0 if exc.code is None else 2)
    # The work is done and closed (bags, servers, rclpy); the interpreter's finalization
    # would restore the default handlers, so a signal arriving then would kill the process:
    # leave without it.
    import os
    sys.stdout.flush()
    sys.stderr.flush()
    os._exit(code or 0)
