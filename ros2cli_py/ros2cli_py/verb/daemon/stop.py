# SPDX-License-Identifier: Apache-2.0
"""ros2 daemon stop."""

import argparse

from ros2cli_py import daemon

HELP = 'Stop the daemon if it is running'


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """Add the verb's arguments (none)."""


def main(args: argparse.Namespace) -> int:
    """Stop the daemon of this environment's graph."""
    if not daemon.stop():
        print('The daemon is not running')
        return 0
    print('The daemon has been stopped')
    return 0
