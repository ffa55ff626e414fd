# SPDX-License-Identifier: Apache-2.0
"""ros2 action info."""

import argparse
from typing import Dict, List, Tuple

from ros2cli_py.api.common import add_node_arguments
from ros2cli_py.api.common import add_show_types_argument
from ros2cli_py.graph import full_node_name
from ros2cli_py.graph import GraphView
from ros2cli_py.graph import open_graph
from ros2cli_py.graph import OWN_NODE_PREFIX

HELP = 'Print information about an action'

#: [(node, [types])]
Endpoints = List[Tuple[str, List[str]]]


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """Add the verb's arguments."""
    add_node_arguments(parser)
    parser.add_argument('action_name',
                        help="Name of the ROS action to get info (e.g. '/fibonacci')")
    add_show_types_argument(parser, 'action')
    parser.add_argument('-c', '--count', action='store_true',
                        help='Only display the number of action clients and action servers')


def _endpoints(cli: GraphView, action: str) -> Tuple[Endpoints, Endpoints]:
    """([(client node, types)], [(server node, types)]) of one action, sorted by node."""
    found: Dict[str, Endpoints] = {'client': [], 'server': []}
    for name, ns in cli.node.get_node_names_and_namespaces():
        if name.startswith(OWN_NODE_PREFIX):
            continue
        for kind, entries in found.items():
            try:
                offered = cli.action_endpoints_by_node(kind, name, ns)
            except Exception:       # noqa: B902 - the node left the graph meanwhile
                continue
            entries.extend((full_node_name(ns, name), types)
                           for n, types in offered if n == action)
    return sorted(found['client']), sorted(found['server'])


def main(args: argparse.Namespace) -> int:
    """Print an action's client and server nodes (ros2cli's layout)."""
    with open_graph(args) as cli:
        cli.discover()
        clients, servers = _endpoints(cli, args.action_name)
    for title, entries in (('Action clients', clients), ('Action servers', servers)):
        if title == 'Action clients':
            print(f'Action: {args.action_name}')
        print(f'{title}: {len(entries)}')
        if not args.count:
            for node, types in entries:
                print(f"    {node} [{', '.join(types)}]" if args.show_types else f'    {node}')
    return 0
