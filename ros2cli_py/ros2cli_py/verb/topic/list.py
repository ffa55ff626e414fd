# SPDX-License-Identifier: Apache-2.0
"""ros2 topic list."""

import argparse

from ros2cli_py.api.common import add_count_argument
from ros2cli_py.api.common import add_include_hidden_argument
from ros2cli_py.api.common import add_node_arguments
from ros2cli_py.api.common import add_show_types_argument
from ros2cli_py.graph import open_graph

HELP = 'Output a list of available topics'


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """Add the verb's arguments."""
    add_node_arguments(parser)
    add_show_types_argument(parser, 'topic')
    add_count_argument(parser, 'topics')
    add_include_hidden_argument(parser, 'topics')
    parser.add_argument('-v', '--verbose', action='store_true',
                        help='List full details about each topic')


def main(args: argparse.Namespace) -> int:
    """Print the topics (with types, counts or publishers/subscribers)."""
    with open_graph(args) as cli:
        cli.discover()
        topics = cli.topics(include_hidden=args.include_hidden_topics)
        if args.count_topics:
            print(len(topics))
            return 0
        if args.verbose:
            for title, count, kind in (
                    ('Published topics:', cli.node.count_publishers, 'publisher'),
                    ('Subscribed topics:', cli.node.count_subscribers, 'subscriber')):
                print(title)
                for name, types in topics:
                    n = count(name)
                    if n:
                        print(f" * {name} [{', '.join(types)}] {n} {kind}{'s' if n > 1 else ''}")
                print()
            return 0
        for name, types in topics:
            print(f"{name} [{', '.join(types)}]" if args.show_types else name)
    return 0
