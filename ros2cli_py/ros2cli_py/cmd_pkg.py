# SPDX-License-Identifier: Apache-2.0
"""ros2 pkg list | prefix | executables, and ros2 run."""

import os
import shlex
import sys

from ros2cli_py import ament
from ros2cli_py.errors import CommandError


def add_pkg(parser):
    """Register the pkg verbs."""
    verbs = parser.add_subparsers(dest='verb', metavar='Commands')
    verbs.required = True
    p = verbs.add_parser('list', help='Output a list of available packages')
    p.set_defaults(func=pkg_list)
    p = verbs.add_parser('prefix', help='Output the prefix path of a package')
    p.add_argument('package_name', help='The package name')
    p.add_argument('--share', action='store_true',
                   help='Show share directory for the package')
    p.set_defaults(func=pkg_prefix)
    p = verbs.add_parser('executables', help='Output a list of package specific executables')
    p.add_argument('package_name', nargs='?', help='The package name')
    p.add_argument('--full-path', action='store_true',
                   help='Show the full path of each executable')
    p.set_defaults(func=pkg_executables)


def pkg_list(args):
    """Print every package name."""
    for name in ament.package_names():
        print(name)
    return 0


def pkg_prefix(args):
    """Print a package's prefix (or share directory)."""
    prefix = ament.package_prefix(args.package_name)
    if args.share:
        prefix = os.path.join(prefix, 'share', args.package_name)
    print(prefix)
    return 0


def pkg_executables(args):
    """Print '<pkg> <exe>' (or full paths) of one or every package."""
    packages = [args.package_name] if args.package_name else ament.package_names()
    for package in packages:
        for path in ament.executable_paths(package):
            print(path if args.full_path else f'{package} {os.path.basename(path)}')
    return 0


def add_run(parser):
    """Register ros2 run's arguments."""
    import argparse
    parser.add_argument('--prefix', metavar='PREFIX',
                        help='Prefix command, which should go before the executable. Command '
                             'must be wrapped in quotes if it contains spaces (e.g. '
                             "--prefix 'gdb -ex run --args').")
    parser.add_argument('package_name', help='Name of the ROS package')
    parser.add_argument('executable_name', help='Name of the executable')
    parser.add_argument('argv', nargs=argparse.REMAINDER,
                        help="Pass arbitrary arguments to the executable (e.g. '--ros-args')")
    parser.set_defaults(func=run)


def run(args):
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
