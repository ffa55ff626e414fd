# SPDX-License-Identifier: Apache-2.0
"""
Stopping on SIGINT/SIGTERM at any moment, imports and start-up included.

The executable is a small launcher script (bin/horus_bridge, run by ``python -S``) that
calls launch() before anything heavy is imported: from then on SIGINT and SIGTERM only
set a stop request, so they never raise KeyboardInterrupt inside an import or a callback
and never kill the process. The node's main() checks the request before rclpy.init and in
its spin loop, and then shuts down in order while the context is still valid. rclpy's own
signal handlers are not installed (they would shut the context down under running
callbacks). This module imports nothing heavy.
"""

import importlib
import signal
import sys
import threading

_requested = threading.Event()


def _on_signal(signum, frame):
    _requested.set()


def install():
    """Route SIGINT and SIGTERM to the stop request (main thread only; idempotent)."""
    if threading.current_thread() is threading.main_thread():
        for sig in (signal.SIGINT, signal.SIGTERM):
            signal.signal(sig, _on_signal)


def requested():
    """Return True once SIGINT or SIGTERM arrived (or request() was called)."""
    return _requested.is_set()


def request():
    """Ask the running executable to stop, as a signal would."""
    _requested.set()


def launch(module, early=()):
    """
    Install the handlers, then import horus_bridge.`module` and exit with its main().

    ``early`` lists signals the launcher's first handlers caught before this ran.
    """
    install()
    if early:
        request()
    if sys.flags.no_site:
        # The launcher runs `python -S` so that these handlers exist before the slow
        # part of start-up: the site module (venv site-packages and their .pth files,
        # ~0.1-0.3 s here). Do its work now, with the handlers in place.
        import site
        site.main()
    sys.exit(importlib.import_module('horus_bridge.' + module).main())
