# SPDX-License-Identifier: Apache-2.0
"""ros2 run: replace this process by a package's executable."""

import argparse
import os
import shlex
import sys
from typing import NoReturn

from ros2cli_py import ament
from ros2cli_py.errors import CommandError


def add_run(parser: argparse.ArgumentParser) -> None:
    """Register ros2 run's arguments."""
    parser.add_argument('--prefix', metavar='PREFIX',
                        help='Prefix command, which should go before the executable. Command '
                             'must be wrapped in quotes if it contains spaces (e.g. '
                             "--prefix 'gdb -ex run --args').")
    parser.add_argument('package_name', help='Name of the ROS package')
    parser.add_argument('executable_name', help='Name of the executable')
    parser.add_argument('argv', nargs=argparse.REMAINDER,
                        help="Pass arbitrary arguments to the executable (e.g. '--ros-args')")
    parser.set_defaults(func=main)


def main(args: argparse.Namespace) -> NoReturn:
    """Replace this process by the package's executable (signals reach it directly)."""
    try:
        paths = ament.executable_paths(args.package_name)
    except CommandError:
        raise CommandError(f"Package '{args.package_name}' not found") from None
    matches = [p for p in paths if os.path.basename(p) == args.executable_name]
    if not matches:
        raise CommandError('No executable found')
    if len(matches) > 1:
        raise CommandError('Multiple executables found: ' + ', '.join(matches))
    cmd = [matches[0]] + list(args.argv)
    if args.prefix:
        try:
            cmd = shlex.split(args.prefix) + cmd
        except ValueError as e:
            raise CommandError(f"Invalid --prefix '{args.prefix}': {e}") from None
    sys.stdout.flush()
    sys.stderr.flush()
    try:
        os.execvp(cmd[0], cmd)
    except OSError as e:
        raise CommandError(f"Failed to run '{cmd[0]}': {e.strerror}") from None
