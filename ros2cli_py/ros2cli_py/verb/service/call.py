# SPDX-License-Identifier: Apache-2.0
"""ros2 service call."""

import argparse
import time
from typing import Any, List, Set

from ros2cli_py.api.common import add_node_arguments
from ros2cli_py.api.common import parse_yaml_mapping
from ros2cli_py.argtypes import positive_float
from ros2cli_py.errors import CommandError
from ros2cli_py.graph import CliNode
from ros2cli_py.graph import expand_topic
from ros2cli_py.typeclass import get_type_class
from ros2cli_py.typeclass import type_string

HELP = 'Call a service'


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """Add the verb's arguments."""
    add_node_arguments(parser)
    parser.add_argument('service_name', help='Name of the ROS service to call to (e.g. '
                                             "'/add_two_ints')")
    parser.add_argument('service_type', help='Type of the ROS service (e.g. '
                                             "'std_srvs/srv/Empty')")
    parser.add_argument('values', nargs='?', default='{}',
                        help='Values to fill the service request with in YAML format (e.g. '
                             '"{a: 1, b: 2}"), otherwise the service request will be '
                             'published with default values')
    parser.add_argument('-r', '--rate', metavar='N', type=positive_float,
                        help='Repeat the call at a specific rate in Hz')
    parser.add_argument('--timeout', metavar='S', type=float, default=5.0,
                        help='Seconds to wait for the service to become available and for '
                             'each response (default: 5; 0 waits forever as ros2cli does)')


def _server_types(cli: CliNode, name: str) -> List[str]:
    """Types offered by the servers of a service (our own client's type not counted)."""
    types: Set[str] = set()
    for node, namespace in cli.node.get_node_names_and_namespaces():
        try:
            offered = cli.node.get_service_names_and_types_by_node(node, namespace)
        except Exception:       # noqa: B902 - the node left the graph meanwhile
            continue
        for service, service_types in offered:
            if service == name:
                types.update(service_types)
    return sorted(types)


def _check_type(cli: CliNode, name: str, srv_class: Any) -> None:
    """Raise CommandError if the graph has the service with another type than given."""
    types = _server_types(cli, name)
    wanted = type_string(srv_class)
    if types and wanted not in types:
        raise CommandError(f"Service '{name}' has type [{', '.join(types)}], not '{wanted}'")


def main(args: argparse.Namespace) -> int:
    """Call a service with a request built from YAML and print the response."""
    from ros2cli_py import convert
    name = expand_topic(args.service_name, 'service')
    srv_class = get_type_class(args.service_type, 'srv')
    values = parse_yaml_mapping(args.values)
    request = convert.new_message(srv_class.Request)
    try:
        convert.set_message_fields(request, values)
    except convert.FieldError as e:
        raise CommandError(f'Failed to populate field: {e}') from None
    wait = None if args.timeout <= 0 else args.timeout
    with CliNode(spin_time=args.spin_time) as cli:
        client = cli.node.create_client(srv_class, name)
        if not client.service_is_ready():
            # like ros2cli: say so only when it is not there within a second
            if not cli.wait_until(client.service_is_ready, 1.0):
                _check_type(cli, name, srv_class)
                print('waiting for service to become available...', flush=True)
            if not cli.wait_until(client.service_is_ready,
                                  float('inf') if wait is None else wait):
                _check_type(cli, name, srv_class)
                raise CommandError(f"Service '{name}' is not available (waited {wait} s)")
        period = None if args.rate is None else 1.0 / args.rate
        while True:
            started = time.monotonic()
            print('requester: making request: %r\n' % request)
            future = client.call_async(request)
            cli.wait_until(future.done, float('inf') if wait is None else wait)
            if not future.done():
                raise CommandError(f"No response from '{name}' within {wait} s")
            if future.exception() is not None:
                raise CommandError(f'Service call failed: {future.exception()}')
            print('response:\n%r\n' % future.result())
            if period is None:
                return 0
            cli.spin_for(max(0.0, started + period - time.monotonic()))
