# SPDX-License-Identifier: Apache-2.0
"""ros2 interface show."""

import argparse
import sys

from ros2cli_py.api.interface import show_lines
from ros2cli_py.errors import CommandError

HELP = 'Output the interface definition'


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """Add the verb's arguments."""
    group = parser.add_mutually_exclusive_group()
    group.add_argument('--all-comments', action='store_true',
                       help='Show all comments, including for nested interface definitions')
    group.add_argument('--no-comments', action='store_true',
                       help='Show no comments or whitespace')
    parser.add_argument('type', help='Show an interface definition (e.g. '
                                     "'hb50_commons/msg/Status'; 'hb50_commons/Status' works "
                                     "too). Passing '-' reads the argument from stdin (e.g. "
                                     "'ros2 topic type /hb50/status | ros2 interface show -').")


def main(args: argparse.Namespace) -> int:
    """Print an interface definition."""
    identifier = args.type
    if identifier == '-':
        if sys.stdin.isatty():
            raise CommandError('expected stdin pipe', code=2)
        identifier = sys.stdin.readline().strip()
    if not identifier:
        raise CommandError('the passed value is empty', code=2)
    lines = show_lines(identifier, show_comments=args.all_comments or not args.no_comments,
                       show_nested_comments=args.all_comments)
    for line in lines:
        print(line)
    return 0
