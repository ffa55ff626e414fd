# SPDX-License-Identifier: Apache-2.0
"""ros2 service echo."""

import argparse
import functools
from typing import Any, Dict, Optional

from ros2cli_py.api.common import add_node_arguments
from ros2cli_py.api.service import service_types
from ros2cli_py.api.topic import add_csv_argument
from ros2cli_py.api.topic import add_truncation_arguments
from ros2cli_py.api.topic import print_echo
from ros2cli_py.errors import CommandError
from ros2cli_py.graph import CliNode
from ros2cli_py.graph import expand_topic
from ros2cli_py.graph import MAX_DISCOVERY_S
from ros2cli_py.typeclass import get_type_class

HELP = 'Echo a service (its introspection events)'


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """Add the verb's arguments."""
    add_node_arguments(parser)
    parser.add_argument('service_name', help='Name of the ROS service to echo from (e.g. '
                                             "'/add_two_ints')")
    parser.add_argument('service_type', nargs='?',
                        help='Type of the ROS service (e.g. '
                             "'example_interfaces/srv/AddTwoInts')")
    add_csv_argument(parser)
    add_truncation_arguments(parser, 'Output all elements for arrays, bytes, and string with a '
                                     "length > '--truncate-length'")
    parser.set_defaults(include_message_info=False)


def main(args: argparse.Namespace) -> int:
    """
    Print the introspection events of a service (its '<name>/_service_event' topic).

    A server publishes them only when its introspection is configured on (rclpy's
    configure_introspection); otherwise nothing is printed, as with ros2cli.
    """
    name = expand_topic(args.service_name, 'service')
    with CliNode(spin_time=args.spin_time) as cli:
        given = args.service_type
        if given is None:
            types = cli.wait_until(lambda: service_types(cli, name), MAX_DISCOVERY_S)
            if not types:
                raise CommandError('Could not determine the type for the passed service '
                                   f"'{args.service_name}'")
            given = types[0]
        srv_class = get_type_class(given, 'srv')
        if not hasattr(srv_class, 'Event'):
            raise CommandError('ros2 service echo: this distro has no service introspection '
                               f"(no Event type for '{given}')")
        truncate = None if args.full_length else args.truncate_length
        cli.node.create_subscription(srv_class.Event, name + '/_service_event',
                                     lambda msg: _print_event(msg, args, truncate), 10)
        while True:
            cli.spin_once(0.1)


@functools.lru_cache(maxsize=None)
def _event_type_names() -> Dict[int, str]:
    """Return {value: name} of service_msgs/ServiceEventInfo's event types (REQUEST_SENT...)."""
    from service_msgs.msg import ServiceEventInfo
    return {getattr(ServiceEventInfo, name): name for name in dir(ServiceEventInfo)
            if name.isupper() and isinstance(getattr(ServiceEventInfo, name), int)}


def _print_event(msg: Any, args: argparse.Namespace, truncate: Optional[int]) -> None:
    """Print one service event as ros2cli does: ``info.event_type`` by its constant's name."""
    from ros2cli_py import convert
    if args.csv:
        print_echo(msg, None, args, truncate)
        return
    fields = convert.message_to_ordereddict(msg, truncate, args.no_arr, args.no_str)
    info = fields.get('info')
    if isinstance(info, dict) and 'event_type' in info:
        info['event_type'] = _event_type_names().get(info['event_type'], info['event_type'])
    print(convert.dump_yaml(fields, args.flow_style), end='---\n')
