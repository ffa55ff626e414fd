# SPDX-License-Identifier: Apache-2.0
"""ros2 service list."""

import argparse

from ros2cli_py.api.common import add_count_argument
from ros2cli_py.api.common import add_include_hidden_argument
from ros2cli_py.api.common import add_node_arguments
from ros2cli_py.api.common import add_show_types_argument
from ros2cli_py.graph import open_graph

HELP = 'Output a list of available services'


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """Add the verb's arguments."""
    add_node_arguments(parser)
    add_show_types_argument(parser, 'service')
    add_count_argument(parser, 'services')
    add_include_hidden_argument(parser, 'services')


def main(args: argparse.Namespace) -> int:
    """Print the services (with types or their count)."""
    with open_graph(args) as cli:
        cli.discover()
        services = cli.services(include_hidden=args.include_hidden_services)
    if args.count_services:
        print(len(services))
        return 0
    for name, types in services:
        print(f"{name} [{', '.join(types)}]" if args.show_types else name)
    return 0
