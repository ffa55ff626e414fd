# SPDX-License-Identifier: Apache-2.0
"""ros2 param list."""

import argparse
import re
import sys
from typing import Dict, List, Optional, Pattern

from rcl_interfaces.srv import DescribeParameters
from ros2cli_py.api.common import add_include_hidden_argument
from ros2cli_py.api.common import add_node_arguments
from ros2cli_py.api.param import call
from ros2cli_py.api.param import list_names
from ros2cli_py.api.param import TYPE_NAMES
from ros2cli_py.errors import CommandError
from ros2cli_py.graph import absolute_node_name
from ros2cli_py.graph import CliNode
from ros2cli_py.graph import open_graph

HELP = 'Output a list of available parameters'


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """Add the verb's arguments."""
    add_node_arguments(parser)
    parser.add_argument('node_name', nargs='?', help='Name of the ROS node')
    parser.add_argument('--filter', help='Only parameters matching the regex expression will '
                                         'be showed. Supports `re` regex syntax.')
    add_include_hidden_argument(parser, 'nodes')
    parser.add_argument('--param-prefixes', nargs='+', default=[],
                        help='Only list parameters with the provided prefixes')
    parser.add_argument('--param-type', action='store_true',
                        help='Print parameter types with parameter names')


def main(args: argparse.Namespace) -> int:
    """Print the parameter names of one node or of every node."""
    regex: Optional[Pattern[str]] = None
    if args.filter is not None:
        try:
            regex = re.compile(args.filter)
        except re.error as e:
            raise CommandError(f"Invalid --filter regex '{args.filter}': {e}") from None
    nodes: List[str] = []
    if not args.node_name:
        # Which nodes exist is a graph question: the daemon answers it when it runs (ros2cli's
        # node strategy); the parameter services are then called from a node of our own.
        with open_graph(args) as graph:
            graph.discover()
            nodes = graph.node_names(include_hidden=args.include_hidden_nodes)
    with CliNode(spin_time=args.spin_time) as cli:
        if args.node_name:
            cli.find_node(args.node_name)
            nodes = [absolute_node_name(args.node_name)]
        for node in nodes:
            try:
                names = list_names(cli, node, args.param_prefixes)
            except CommandError as e:
                if args.node_name:
                    raise
                print(f"Exception while calling service of node '{node}': {e}",
                      file=sys.stderr)
                continue
            if regex is not None:
                names = [n for n in names if regex.match(n)]
            if not args.node_name and names:
                print(f'{node}:')
            types: Dict[str, str] = {}
            if args.param_type and names:
                request = DescribeParameters.Request()
                request.names = names
                response = call(cli, node, DescribeParameters, 'describe_parameters', request)
                types = {d.name: TYPE_NAMES.get(d.type, 'unknown') for d in response.descriptors}
            for name in names:
                print(f'  {name} (type: {types[name]})' if args.param_type else f'  {name}')
    return 0
