# SPDX-License-Identifier: Apache-2.0
"""ros2 service type."""

import argparse

from ros2cli_py.api.common import add_node_arguments
from ros2cli_py.api.service import service_types
from ros2cli_py.graph import expand_topic
from ros2cli_py.graph import MAX_DISCOVERY_S
from ros2cli_py.graph import open_graph

HELP = "Output a service's type"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """Add the verb's arguments."""
    add_node_arguments(parser)
    parser.add_argument('service_name', help='Name of the ROS service to get type (e.g. '
                                             "'/talker/list_parameters')")


def main(args: argparse.Namespace) -> int:
    """Print the type(s) of a service; nothing and exit 1 if unknown (as ros2cli)."""
    name = expand_topic(args.service_name, 'service')
    with open_graph(args) as cli:
        types = cli.wait_until(lambda: service_types(cli, name), MAX_DISCOVERY_S)
    if not types:
        return 1
    for t in types:
        print(t)
    return 0
