# SPDX-License-Identifier: Apache-2.0
"""ros2 action send_goal."""

import argparse
import importlib
from typing import Any

from ros2cli_py.api.common import parse_yaml_mapping
from ros2cli_py.errors import CommandError
from ros2cli_py.graph import CliNode
from ros2cli_py.graph import OWN_NODE_PREFIX

HELP = 'Send an action goal'

# action_msgs/msg/GoalStatus values, by name (ros2cli's wording)
_STATUS = {1: 'ACCEPTED', 2: 'EXECUTING', 3: 'CANCELING', 4: 'SUCCEEDED', 5: 'CANCELED',
           6: 'ABORTED'}


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """Add the verb's arguments."""
    parser.add_argument('action_name', help="Name of the ROS action (e.g. '/fibonacci')")
    parser.add_argument('action_type',
                        help='Type of the ROS action (e.g. '
                             "'example_interfaces/action/Fibonacci')")
    parser.add_argument('goal', nargs='?', default='{}',
                        help="Goal request values in YAML format (e.g. '{order: 10}')")
    parser.add_argument('-f', '--feedback', action='store_true',
                        help='Echo feedback messages for the goal')


def action_class(identifier: str) -> Any:
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


def _yaml(msg: Any) -> str:
    from ros2cli_py import convert
    return convert.message_to_yaml(msg)


def main(args: argparse.Namespace) -> int:
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

            def feedback(message: Any) -> None:
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
