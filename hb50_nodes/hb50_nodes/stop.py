# SPDX-License-Identifier: Apache-2.0
"""
Stopping on SIGINT/SIGTERM at any moment, start-up and imports included.

The executables are small launcher scripts (bin/, run with `python3 -S`) that call launch()
before importing anything heavy, ~10 ms after exec: from then on SIGINT and SIGTERM only set
a stop request, never raise KeyboardInterrupt in the middle of an import and never kill the
process. ros_common.run()
checks the request before rclpy.init, between node constructions and in the spin loop, and
then shuts down in order (loop threads and timers, executor, nodes, context) while the
context is still valid, so no callback, log line or publish meets an invalid context. rclpy's
own signal handlers are not installed (SignalHandlerOptions.NO): they would shut the context
down under the running callbacks. This module imports nothing heavy.
"""

# `_signal` is the interpreter's built-in module under `signal`: importing it costs nothing,
# while `signal` builds its enums first (milliseconds, far more on a loaded machine).
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
    """Ask the running executable to stop, as a signal would."""
    _requested.append(None)


def launch(module, node_class=None):
    """
    Run an executable: the body of a launcher script.

    Installs the handlers, then imports hb50_nodes.`module` and runs its main(), or its
    `node_class` through ros_common.run().
    """
    install()
    import importlib
    import sys
    if sys.flags.no_site:
        # The launchers run `python3 -S`: the interpreter reaches their first line in ~10 ms
        # instead of ~70 ms (measured), so the handlers are in place that much earlier; the
        # venv's site-packages are added now.
        import site
        site.main()
    mod = importlib.import_module(f'hb50_nodes.{module}')
    if node_class is None:
        sys.exit(mod.main())
    from .ros_common import run
    sys.exit(run([getattr(mod, node_class)]))
