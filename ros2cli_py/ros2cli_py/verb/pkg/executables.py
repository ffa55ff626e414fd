# SPDX-License-Identifier: Apache-2.0
"""ros2 pkg executables."""

import argparse
import os

from ros2cli_py import ament

HELP = 'Output a list of package specific executables'


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """Add the verb's arguments."""
    parser.add_argument('package_name', nargs='?', help='The package name')
    parser.add_argument('--full-path', action='store_true',
                        help='Show the full path of each executable')


def main(args: argparse.Namespace) -> int:
    """Print '<pkg> <exe>' (or full paths) of one or every package."""
    packages = [args.package_name] if args.package_name else ament.package_names()
    for package in packages:
        for path in ament.executable_paths(package):
            print(path if args.full_path else f'{package} {os.path.basename(path)}')
    return 0
