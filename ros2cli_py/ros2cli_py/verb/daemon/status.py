# SPDX-License-Identifier: Apache-2.0
"""ros2 daemon status."""

import argparse

from ros2cli_py import daemon

HELP = 'Output the status of the daemon'


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """Add the verb's arguments (none)."""


def main(args: argparse.Namespace) -> int:
    """Say whether the daemon of this environment's graph runs."""
    print('The daemon is running' if daemon.is_running() else 'The daemon is not running')
    return 0
