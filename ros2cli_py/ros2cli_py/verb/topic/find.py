# SPDX-License-Identifier: Apache-2.0
"""ros2 topic find."""

import argparse

from ros2cli_py.api.common import add_count_argument
from ros2cli_py.api.common import add_include_hidden_argument
from ros2cli_py.api.common import add_node_arguments
from ros2cli_py.graph import open_graph

HELP = 'Output a list of available topics of a given type'


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """Add the verb's arguments."""
    add_node_arguments(parser)
    parser.add_argument('topic_type', help='Name of the ROS topic type to filter for (e.g. '
                                           "'std_msgs/msg/String')")
    add_count_argument(parser, 'topics')
    add_include_hidden_argument(parser, 'topics')


def main(args: argparse.Namespace) -> int:
    """Print the topics of one type (ros2cli: an unknown type prints nothing, exit 0)."""
    with open_graph(args) as cli:
        cli.discover()
        topics = [name for name, types in cli.topics(args.include_hidden_topics)
                  if args.topic_type in types]
    if args.count_topics:
        print(len(topics))
    else:
        for name in topics:
            print(name)
    return 0
