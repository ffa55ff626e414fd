# SPDX-License-Identifier: Apache-2.0
"""ros2 topic type."""

import argparse

from ros2cli_py.api.common import add_include_hidden_argument
from ros2cli_py.api.common import add_node_arguments
from ros2cli_py.api.topic import known_types
from ros2cli_py.graph import expand_topic
from ros2cli_py.graph import open_graph
from ros2cli_py.graph import topic_or_service_is_hidden

HELP = "Print a topic's type"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """Add the verb's arguments."""
    add_node_arguments(parser)
    parser.add_argument('topic_name', help="Name of the ROS topic to get type (e.g. '/chatter')")
    add_include_hidden_argument(parser, 'topics')


def main(args: argparse.Namespace) -> int:
    """Print the type(s) of a topic; nothing and exit 1 if unknown or hidden (as ros2cli)."""
    topic = expand_topic(args.topic_name)
    if topic_or_service_is_hidden(topic) and not args.include_hidden_topics:
        return 1
    with open_graph(args) as cli:
        types = known_types(cli, topic)
    if not types:
        return 1
    for t in types:
        print(t)
    return 0
