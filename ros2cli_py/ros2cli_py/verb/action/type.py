# SPDX-License-Identifier: Apache-2.0
"""ros2 action type."""

import argparse

from ros2cli_py.api.common import add_node_arguments
from ros2cli_py.graph import open_graph

HELP = "Print an action's type"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """Add the verb's arguments."""
    add_node_arguments(parser)
    parser.add_argument('action_name',
                        help="Name of the ROS action to get type (e.g. '/fibonacci')")


def main(args: argparse.Namespace) -> int:
    """Print the type(s) of an action; nothing and exit 1 if unknown (as ros2cli)."""
    with open_graph(args) as cli:
        types = cli.wait_until(lambda: dict(cli.actions()).get(args.action_name), 0)
    if not types:
        return 1
    for t in types:
        print(t)
    return 0
