# SPDX-License-Identifier: Apache-2.0
"""
Console entry points that own SIGINT and SIGTERM from their first line.

Importing this module installs handlers before rclpy or python-can is imported, so a signal
that lands during imports or start-up ends the process with status 0 and no traceback:
robstride_sim_node and robstride_fake_motors only note it (their loops stop cleanly), the
short-lived robstride_cli stops at once.
"""
import signal
import threading

STOP = threading.Event()


def _note(signum, frame):
    STOP.set()


for _sig in (signal.SIGINT, signal.SIGTERM):
    signal.signal(_sig, _note)


def node_main():
    """robstride_sim_node (robstride_hardware_interface)."""
    if STOP.is_set():
        return 0
    from .node import main
    return main(stop=STOP)


def fake_motors_main():
    """robstride_fake_motors."""
    if STOP.is_set():
        return 0
    from .fake_motors import main
    return main(stop=STOP)


def _interrupt(signum, frame):
    raise KeyboardInterrupt


def cli_main():
    """robstride_cli: a signal interrupts whatever it waits for; exit status 0."""
    for sig in (signal.SIGINT, signal.SIGTERM):
        signal.signal(sig, _interrupt)
    try:
        if STOP.is_set():
            return 0
        from .cli import main
        return main()
    except KeyboardInterrupt:
        return 0
