# SPDX-License-Identifier: Apache-2.0
"""ros2 service list | type | call."""

import functools
import time

from ros2cli_py.argtypes import positive_float
from ros2cli_py.argtypes import unsigned_int
from ros2cli_py.cmd_topic import add_node_arguments
from ros2cli_py.cmd_topic import parse_yaml_mapping
from ros2cli_py.errors import CommandError
from ros2cli_py.graph import CliNode
from ros2cli_py.graph import expand_topic
from ros2cli_py.graph import MAX_DISCOVERY_S
from ros2cli_py.graph import open_graph
from ros2cli_py.typeclass import get_type_class
from ros2cli_py.typeclass import type_string


def add_service(parser):
    """Register the service verbs."""
    verbs = parser.add_subparsers(dest='verb', metavar='Commands')
    verbs.required = True
    p = verbs.add_parser('list', help='Output a list of available services')
    add_node_arguments(p)
    p.add_argument('-t', '--show-types', action='store_true',
                   help='Additionally show the service type')
    p.add_argument('-c', '--count-services', action='store_true',
                   help='Only display the number of services discovered')
    p.add_argument('--include-hidden-services', action='store_true',
                   help='Consider hidden services as well')
    p.set_defaults(func=service_list)
    p = verbs.add_parser('type', help="Output a service's type")
    add_node_arguments(p)
    p.add_argument('service_name', help='Name of the ROS service to get type (e.g. '
                                        "'/talker/list_parameters')")
    p.set_defaults(func=service_type)
    p = verbs.add_parser('find', help='Output a list of available services of a given type')
    add_node_arguments(p)
    p.add_argument('service_type', help='Name of the ROS service type to filter for (e.g. '
                                        "'rcl_interfaces/srv/ListParameters')")
    p.add_argument('-c', '--count-services', action='store_true',
                   help='Only display the number of services discovered')
    p.add_argument('--include-hidden-services', action='store_true',
                   help='Consider hidden services as well')
    p.set_defaults(func=service_find)
    p = verbs.add_parser('echo', help='Echo a service (its introspection events)')
    add_node_arguments(p)
    p.add_argument('service_name', help='Name of the ROS service to echo from (e.g. '
                                        "'/add_two_ints')")
    p.add_argument('service_type', nargs='?',
                   help="Type of the ROS service (e.g. 'example_interfaces/srv/AddTwoInts')")
    p.add_argument('--csv', action='store_true',
                   help='Output all recursive fields separated by commas (e.g. for plotting)')
    p.add_argument('--full-length', '-f', action='store_true',
                   help='Output all elements for arrays, bytes, and string with a length > '
                        "'--truncate-length'")
    p.add_argument('--truncate-length', '-l', type=unsigned_int, default=128,
                   help='The length to truncate arrays, bytes, and string to (default: 128)')
    p.add_argument('--no-arr', action='store_true', help="Don't print array fields of messages")
    p.add_argument('--no-str', action='store_true',
                   help="Don't print string fields of messages")
    p.add_argument('--flow-style', action='store_true',
                   help='Print collections in the flow style (not available with csv format)')
    p.set_defaults(func=service_echo, include_message_info=False)
    p = verbs.add_parser('call', help='Call a service')
    add_node_arguments(p)
    p.add_argument('service_name', help='Name of the ROS service to call to (e.g. '
                                        "'/add_two_ints')")
    p.add_argument('service_type', help='Type of the ROS service (e.g. '
                                        "'std_srvs/srv/Empty')")
    p.add_argument('values', nargs='?', default='{}',
                   help='Values to fill the service request with in YAML format (e.g. '
                        '"{a: 1, b: 2}"), otherwise the service request will be published with '
                        'default values')
    p.add_argument('-r', '--rate', metavar='N', type=positive_float,
                   help='Repeat the call at a specific rate in Hz')
    p.add_argument('--timeout', metavar='S', type=float, default=5.0,
                   help='Seconds to wait for the service to become available and for each '
                        'response (default: 5; 0 waits forever as ros2cli does)')
    p.set_defaults(func=service_call)


def service_list(args):
    """Print the services (with types or their count)."""
    with open_graph(args) as cli:
        cli.discover()
        services = cli.services(include_hidden=args.include_hidden_services)
    if args.count_services:
        print(len(services))
        return 0
    for name, types in services:
        print(f"{name} [{', '.join(types)}]" if args.show_types else name)
    return 0


def service_find(args):
    """Print the services of one type (an unknown type prints nothing, exit 0)."""
    with open_graph(args) as cli:
        cli.discover()
        names = [n for n, types in cli.services(include_hidden=args.include_hidden_services)
                 if args.service_type in types]
    if args.count_services:
        print(len(names))
    else:
        for name in names:
            print(name)
    return 0


def _service_types(cli, name):
    for n, types in cli.node.get_service_names_and_types():
        if n == name:
            return types
    return []


def service_type(args):
    """Print the type(s) of a service; nothing and exit 1 if unknown (as ros2cli)."""
    name = expand_topic(args.service_name, 'service')
    with open_graph(args) as cli:
        types = cli.wait_until(lambda: _service_types(cli, name), MAX_DISCOVERY_S)
    if not types:
        return 1
    for t in types:
        print(t)
    return 0


def service_echo(args):
    """
    Print the introspection events of a service (its '<name>/_service_event' topic).

    A server publishes them only when its introspection is configured on (rclpy's
    configure_introspection); otherwise nothing is printed, as with ros2cli.
    """
    name = expand_topic(args.service_name, 'service')
    with CliNode(spin_time=args.spin_time) as cli:
        given = args.service_type
        if given is None:
            types = cli.wait_until(lambda: _service_types(cli, name), MAX_DISCOVERY_S)
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
def _event_type_names():
    """Return {value: name} of service_msgs/ServiceEventInfo's event types (REQUEST_SENT...)."""
    from service_msgs.msg import ServiceEventInfo
    return {getattr(ServiceEventInfo, name): name for name in dir(ServiceEventInfo)
            if name.isupper() and isinstance(getattr(ServiceEventInfo, name), int)}


def _print_event(msg, args, truncate):
    """Print one service event as ros2cli does: ``info.event_type`` by its constant's name."""
    from ros2cli_py import convert
    from ros2cli_py.cmd_topic import _print_echo
    if args.csv:
        _print_echo(msg, None, args, truncate)
        return
    fields = convert.message_to_ordereddict(msg, truncate, args.no_arr, args.no_str)
    info = fields.get('info')
    if isinstance(info, dict) and 'event_type' in info:
        info['event_type'] = _event_type_names().get(info['event_type'], info['event_type'])
    print(convert.dump_yaml(fields, args.flow_style), end='---\n')


def _server_types(cli, name):
    """Types offered by the servers of a service (our own client's type not counted)."""
    types = set()
    for node, namespace in cli.node.get_node_names_and_namespaces():
        try:
            offered = cli.node.get_service_names_and_types_by_node(node, namespace)
        except Exception:       # noqa: B902 - the node left the graph meanwhile
            continue
        for service, service_types in offered:
            if service == name:
                types.update(service_types)
    return sorted(types)


def _check_type(cli, name, srv_class):
    """Raise CommandError if the graph has the service with another type than given."""
    types = _server_types(cli, name)
    wanted = type_string(srv_class)
    if types and wanted not in types:
        raise CommandError(f"Service '{name}' has type [{', '.join(types)}], not '{wanted}'")


def service_call(args):
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
