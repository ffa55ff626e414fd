# SPDX-License-Identifier: Apache-2.0
"""ros2 action list."""

import argparse

from ros2cli_py.api.common import add_count_argument
from ros2cli_py.api.common import add_node_arguments
from ros2cli_py.api.common import add_show_types_argument
from ros2cli_py.graph import open_graph

HELP = 'Output a list of action names'


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """Add the verb's arguments."""
    add_node_arguments(parser)
    add_show_types_argument(parser, 'action')
    add_count_argument(parser, 'actions')


def main(args: argparse.Namespace) -> int:
    """Print the actions (with types or their count)."""
    with open_graph(args) as cli:
        cli.discover()
        actions = cli.actions()
    if args.count_actions:
        print(len(actions))
        return 0
    for name, types in actions:
        print(f"{name} [{', '.join(types)}]" if args.show_types else name)
    return 0
