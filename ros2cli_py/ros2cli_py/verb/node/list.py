# SPDX-License-Identifier: Apache-2.0
"""ros2 node list."""

import argparse
import sys

from ros2cli_py.api.common import add_count_argument
from ros2cli_py.api.common import add_node_arguments
from ros2cli_py.graph import full_node_name
from ros2cli_py.graph import open_graph

HELP = 'Output a list of available nodes'


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """Add the verb's arguments."""
    add_node_arguments(parser)
    parser.add_argument('-a', '--all', action='store_true',
                        help='Display all nodes even hidden ones')
    add_count_argument(parser, 'nodes')


def main(args: argparse.Namespace) -> int:
    """Print the full names of the nodes."""
    with open_graph(args) as cli:
        cli.discover()
        # -a: every node, the daemon's too (ros2cli counts its daemon's node)
        pairs = cli.node_pairs(include_hidden=args.all, include_own=args.all)
    names = sorted(full_node_name(ns, n) for n, ns in pairs)
    if args.count_nodes:
        print(len(names))
        return 0
    if len(set(names)) != len(names):
        print('WARNING: Be aware that there are nodes in the graph that share an exact name, '
              'which can have unintended side effects.', file=sys.stderr)
    for name in sorted(set(names)):
        print(name)
    return 0
