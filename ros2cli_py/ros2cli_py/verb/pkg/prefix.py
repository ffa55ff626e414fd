# SPDX-License-Identifier: Apache-2.0
"""ros2 pkg prefix."""

import argparse
import os

from ros2cli_py import ament

HELP = 'Output the prefix path of a package'


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """Add the verb's arguments."""
    parser.add_argument('package_name', help='The package name')
    parser.add_argument('--share', action='store_true',
                        help='Show share directory for the package')


def main(args: argparse.Namespace) -> int:
    """Print a package's prefix (or share directory)."""
    prefix = ament.package_prefix(args.package_name)
    if args.share:
        prefix = os.path.join(prefix, 'share', args.package_name)
    print(prefix)
    return 0
