# SPDX-License-Identifier: Apache-2.0
"""ros2 daemon start."""

import argparse

from ros2cli_py import daemon

HELP = "Start the daemon if it isn't running"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """Add the verb's arguments (none)."""


def main(args: argparse.Namespace) -> int:
    """Start the daemon of this environment's graph (ros2cli's messages)."""
    if daemon.is_running():
        print('The daemon is already running')
        return 0
    if not daemon.start():
        print('The daemon did not start', flush=True)
        return 1
    print('The daemon has been started')
    return 0
