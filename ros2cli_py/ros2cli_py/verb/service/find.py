# SPDX-License-Identifier: Apache-2.0
"""ros2 service find."""

import argparse

from ros2cli_py.api.common import add_count_argument
from ros2cli_py.api.common import add_include_hidden_argument
from ros2cli_py.api.common import add_node_arguments
from ros2cli_py.graph import open_graph

HELP = 'Output a list of available services of a given type'


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """Add the verb's arguments."""
    add_node_arguments(parser)
    parser.add_argument('service_type', help='Name of the ROS service type to filter for (e.g. '
                                             "'rcl_interfaces/srv/ListParameters')")
    add_count_argument(parser, 'services')
    add_include_hidden_argument(parser, 'services')


def main(args: argparse.Namespace) -> int:
    """Print the services of one type (an unknown type prints nothing, exit 0)."""
    with open_graph(args) as cli:
        cli.discover()
        names = [n for n, types in cli.services(include_hidden=args.include_hidden_services)
                 if args.service_type in types]
    if args.count_services:
        print(len(names))
    else:
        for name in names:
            print(name)
    return 0
