# SPDX-License-Identifier: Apache-2.0
"""ros2 node info."""

import argparse
import sys
from typing import Iterable, List, Sequence, Tuple

from ros2cli_py.api.common import add_node_arguments
from ros2cli_py.errors import CommandError
from ros2cli_py.graph import absolute_node_name
from ros2cli_py.graph import open_graph
from ros2cli_py.graph import topic_or_service_is_hidden

HELP = 'Output information about a node'


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """Add the verb's arguments."""
    add_node_arguments(parser)
    parser.add_argument('node_name', help='Node name to request information')
    parser.add_argument('--include-hidden', action='store_true',
                        help='Display hidden topics, services, and actions as well')


def _section(title: str, entries: Iterable[Tuple[str, Sequence[str]]],
             include_hidden: bool) -> None:
    print(f'  {title}:')
    shown: List[Tuple[str, Sequence[str]]] = [
        (n, t) for n, t in sorted(entries)
        if include_hidden or not topic_or_service_is_hidden(n)]
    # ros2cli prints the joined entries with one print call: an empty section is a blank line
    print(*[f"    {n}: {', '.join(t)}" for n, t in shown], sep='\n')


def main(args: argparse.Namespace) -> int:
    """Print a node's subscribers, publishers, services and actions."""
    wanted = absolute_node_name(args.node_name)
    with open_graph(args) as cli:
        try:
            name, ns = cli.find_node(wanted, include_hidden=args.include_hidden)
        except CommandError:
            raise CommandError(f"Unable to find node '{args.node_name}'") from None
        cli.discover()
        n = cli.node
        count = cli.count_node(wanted)
        if count > 1:
            print(f'There are {count} nodes in the graph with the exact name "{wanted}". '
                  'You are seeing information about only one of them.', file=sys.stderr)
        print(wanted)
        _section('Subscribers', n.get_subscriber_names_and_types_by_node(name, ns),
                 args.include_hidden)
        _section('Publishers', n.get_publisher_names_and_types_by_node(name, ns),
                 args.include_hidden)
        _section('Service Servers', n.get_service_names_and_types_by_node(name, ns),
                 args.include_hidden)
        _section('Service Clients', n.get_client_names_and_types_by_node(name, ns),
                 args.include_hidden)
        _section('Action Servers', cli.action_endpoints_by_node('server', name, ns),
                 args.include_hidden)
        _section('Action Clients', cli.action_endpoints_by_node('client', name, ns),
                 args.include_hidden)
    return 0
