# SPDX-License-Identifier: Apache-2.0
"""ros2 topic info."""

import argparse

from ros2cli_py.api.common import add_node_arguments
from ros2cli_py.api.topic import known_types
from ros2cli_py.errors import CommandError
from ros2cli_py.graph import expand_topic
from ros2cli_py.graph import open_graph

HELP = 'Print information about a topic'


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """Add the verb's arguments."""
    add_node_arguments(parser)
    parser.add_argument('topic_name', help="Name of the ROS topic to get info (e.g. '/chatter')")
    parser.add_argument('-v', '--verbose', action='store_true',
                        help='Prints detailed information like the node name, node namespace, '
                             'topic type, GUID and QoS Profile of the publishers and '
                             'subscribers to this topic')


def main(args: argparse.Namespace) -> int:
    """Print type, publisher and subscription counts (and endpoints with -v)."""
    topic = expand_topic(args.topic_name)
    with open_graph(args) as cli:
        types = known_types(cli, topic)
        if not types:
            raise CommandError(f"Unknown topic '{args.topic_name}'")
        cli.discover()      # endpoint details arrive after the topic itself
        types = cli.topic_types(topic) or types
        end = '\n\n' if args.verbose else '\n'
        print('Type: %s' % (types[0] if len(types) == 1 else types), end=end)
        print('Publisher count: %d' % cli.node.count_publishers(topic), end=end)
        if args.verbose:
            for info in cli.node.get_publishers_info_by_topic(topic):
                print(info, end=end)
            print('Subscription count: %d' % cli.node.count_subscribers(topic), end=end)
            for info in cli.node.get_subscriptions_info_by_topic(topic):
                print(info, end=end)
        else:
            print('Subscription count: %d' % cli.node.count_subscribers(topic))
    return 0
