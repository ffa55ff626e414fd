# SPDX-License-Identifier: Apache-2.0
"""ros2 action list | info | type | send_goal."""

import importlib

from ros2cli_py.cmd_topic import add_node_arguments
from ros2cli_py.cmd_topic import parse_yaml_mapping
from ros2cli_py.errors import CommandError
from ros2cli_py.graph import CliNode
from ros2cli_py.graph import full_node_name
from ros2cli_py.graph import open_graph
from ros2cli_py.graph import OWN_NODE_PREFIX

# action_msgs/msg/GoalStatus values, by name (ros2cli's wording)
_STATUS = {1: 'ACCEPTED', 2: 'EXECUTING', 3: 'CANCELING', 4: 'SUCCEEDED', 5: 'CANCELED',
           6: 'ABORTED'}


def add_action(parser):
    """Register the action verbs."""
    verbs = parser.add_subparsers(dest='verb', metavar='Commands')
    verbs.required = True
    p = verbs.add_parser('list', help='Output a list of action names')
    add_node_arguments(p)
    p.add_argument('-t', '--show-types', action='store_true',
                   help='Additionally show the action type')
    p.add_argument('-c', '--count-actions', action='store_true',
                   help='Only display the number of actions discovered')
    p.set_defaults(func=action_list)
    p = verbs.add_parser('info', help='Print information about an action')
    add_node_arguments(p)
    p.add_argument('action_name', help="Name of the ROS action to get info (e.g. '/fibonacci')")
    p.add_argument('-t', '--show-types', action='store_true',
                   help='Additionally show the action type')
    p.add_argument('-c', '--count', action='store_true',
                   help='Only display the number of action clients and action servers')
    p.set_defaults(func=action_info)
    p = verbs.add_parser('type', help="Print an action's type")
    add_node_arguments(p)
    p.add_argument('action_name', help="Name of the ROS action to get type (e.g. '/fibonacci')")
    p.set_defaults(func=action_type)
    p = verbs.add_parser('send_goal', help='Send an action goal')
    p.add_argument('action_name', help="Name of the ROS action (e.g. '/fibonacci')")
    p.add_argument('action_type',
                   help="Type of the ROS action (e.g. 'example_interfaces/action/Fibonacci')")
    p.add_argument('goal', nargs='?', default='{}',
                   help="Goal request values in YAML format (e.g. '{order: 10}')")
    p.add_argument('-f', '--feedback', action='store_true',
                   help='Echo feedback messages for the goal')
    p.set_defaults(func=action_send_goal)


def action_list(args):
    """Print the actions (with types or their count)."""
    with open_graph(args) as cli:
        cli.discover()
        actions = cli.actions()
    if args.count_actions:
        print(len(actions))
        return 0
    for name, types in actions:
        print(f"{name} [{', '.join(types)}]" if args.show_types else name)
    return 0


def action_type(args):
    """Print the type(s) of an action; nothing and exit 1 if unknown (as ros2cli)."""
    with open_graph(args) as cli:
        types = cli.wait_until(lambda: dict(cli.actions()).get(args.action_name), 0)
    if not types:
        return 1
    for t in types:
        print(t)
    return 0


def _endpoints(cli, action):
    """([(client node, types)], [(server node, types)]) of one action, sorted by node."""
    found = {'client': [], 'server': []}
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


def action_info(args):
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


def action_class(identifier):
    """Return the class of 'pkg/action/Name' (or 'pkg/Name'); CommandError if invalid."""
    parts = identifier.split('/')
    if all(parts) and (len(parts) == 2 or (len(parts) == 3 and parts[1] == 'action')):
        try:
            cls = getattr(importlib.import_module(f'{parts[0]}.action'), parts[-1])
        except (ImportError, AttributeError, ValueError):
            cls = None
        if all(hasattr(cls, part) for part in ('Goal', 'Result', 'Feedback')):
            return cls
    raise CommandError(f"The passed action type is invalid: '{identifier}'")


def _yaml(msg):
    from ros2cli_py import convert
    return convert.message_to_yaml(msg)


def action_send_goal(args):
    """Send one goal, print its feedback (-f), result and final status."""
    from ros2cli_py import convert
    from rclpy.action import ActionClient
    cls = action_class(args.action_type)
    goal = convert.new_message(cls.Goal)
    try:
        convert.set_message_fields(goal, parse_yaml_mapping(args.goal))
    except convert.FieldError as e:
        raise CommandError(f'Failed to populate field: {e}') from None
    name = args.action_name
    package, kind = args.action_type.split('/')[0], args.action_type.split('/')[-1]
    with CliNode(f'{OWN_NODE_PREFIX}send_goal_{package}_{kind}') as cli:
        client = ActionClient(cli.node, cls, name)
        handle = None
        try:
            print('Waiting for an action server to become available...')
            cli.wait_until(client.server_is_ready, float('inf'))
            print(f'Sending goal:\n     {_yaml(goal)}')

            def feedback(message):
                print(f'Feedback:\n    {_yaml(message.feedback)}')
            future = client.send_goal_async(goal, feedback if args.feedback else None)
            cli.wait_until(future.done, float('inf'))
            handle = future.result()
            if handle is None:
                raise CommandError(f'Exception while sending goal: {future.exception()!r}')
            if not handle.accepted:
                print('Goal was rejected.')
                return 0
            print('Goal accepted with ID: %s\n' % bytes(handle.goal_id.uuid).hex())
            result_future = handle.get_result_async()
            cli.wait_until(result_future.done, float('inf'))
            result = result_future.result()
            if result is None:
                raise CommandError(
                    f'Exception while getting result: {result_future.exception()!r}')
            handle = None
            print(f'Result:\n    {_yaml(result.result)}')
            print(f'Goal finished with status: {_STATUS.get(result.status, "UNKNOWN")}')
        except BaseException:
            # a stop (SIGINT/SIGTERM) while the goal runs: cancel it as ros2cli does
            if handle is not None and handle.accepted:
                print('Canceling goal...')
                cancel = handle.cancel_goal_async()
                cli.wait_until(cancel.done, 2.0)
            raise
        finally:
            client.destroy()
    return 0
