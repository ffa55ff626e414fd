# SPDX-License-Identifier: Apache-2.0
"""ros2 node list | info."""

import sys

from ros2cli_py.cmd_topic import add_node_arguments
from ros2cli_py.errors import CommandError
from ros2cli_py.graph import absolute_node_name
from ros2cli_py.graph import full_node_name
from ros2cli_py.graph import open_graph
from ros2cli_py.graph import topic_or_service_is_hidden


def add_node(parser):
    """Register the node verbs."""
    verbs = parser.add_subparsers(dest='verb', metavar='Commands')
    verbs.required = True
    p = verbs.add_parser('list', help='Output a list of available nodes')
    add_node_arguments(p)
    p.add_argument('-a', '--all', action='store_true',
                   help='Display all nodes even hidden ones')
    p.add_argument('-c', '--count-nodes', action='store_true',
                   help='Only display the number of nodes discovered')
    p.set_defaults(func=node_list)
    p = verbs.add_parser('info', help='Output information about a node')
    add_node_arguments(p)
    p.add_argument('node_name', help='Node name to request information')
    p.add_argument('--include-hidden', action='store_true',
                   help='Display hidden topics, services, and actions as well')
    p.set_defaults(func=node_info)


def node_list(args):
    """Print the full names of the nodes."""
    with open_graph(args) as cli:
        cli.discover()
        # -a: every node, the daemon's too (ros2cli counts its daemon's node)
        pairs = cli.node_pairs(include_hidden=args.all, include_own=args.all)
    names = sorted(full_node_name(ns, n) for n, ns in pairs)
    if args.count_nodes:
        print(len(names))
        return 0
    if len(set(names)) != len(names):
        print('WARNING: Be aware that there are nodes in the graph that share an exact name, '
              'which can have unintended side effects.', file=sys.stderr)
    for name in sorted(set(names)):
        print(name)
    return 0


def _section(title, entries, include_hidden):
    print(f'  {title}:')
    shown = [(n, t) for n, t in sorted(entries)
             if include_hidden or not topic_or_service_is_hidden(n)]
    # ros2cli prints the joined entries with one print call: an empty section is a blank line
    print(*[f"    {n}: {', '.join(t)}" for n, t in shown], sep='\n')


def node_info(args):
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
