# SPDX-License-Identifier: Apache-2.0
"""ros2 param list | get | set | dump | load."""

import re
import sys

from rcl_interfaces.msg import Parameter
from rcl_interfaces.msg import ParameterType
from rcl_interfaces.srv import DescribeParameters
from rcl_interfaces.srv import GetParameters
from rcl_interfaces.srv import ListParameters
from rcl_interfaces.srv import SetParameters
from rclpy.parameter import get_parameter_value
from ros2cli_py.cmd_topic import add_node_arguments
from ros2cli_py.errors import CommandError
from ros2cli_py.graph import absolute_node_name
from ros2cli_py.graph import CliNode
from ros2cli_py.graph import open_graph
import yaml

SERVICE_TIMEOUT_S = 5.0

_TYPE_NAMES = {
    ParameterType.PARAMETER_BOOL: 'boolean',
    ParameterType.PARAMETER_INTEGER: 'integer',
    ParameterType.PARAMETER_DOUBLE: 'double',
    ParameterType.PARAMETER_STRING: 'string',
    ParameterType.PARAMETER_BYTE_ARRAY: 'byte array',
    ParameterType.PARAMETER_BOOL_ARRAY: 'boolean array',
    ParameterType.PARAMETER_INTEGER_ARRAY: 'integer array',
    ParameterType.PARAMETER_DOUBLE_ARRAY: 'double array',
    ParameterType.PARAMETER_STRING_ARRAY: 'string array',
    ParameterType.PARAMETER_NOT_SET: 'not set',
}

# (label of `ros2 param get`, attribute of ParameterValue) per type
_GET_LABELS = {
    ParameterType.PARAMETER_BOOL: ('Boolean value is:', 'bool_value'),
    ParameterType.PARAMETER_INTEGER: ('Integer value is:', 'integer_value'),
    ParameterType.PARAMETER_DOUBLE: ('Double value is:', 'double_value'),
    ParameterType.PARAMETER_STRING: ('String value is:', 'string_value'),
    ParameterType.PARAMETER_BYTE_ARRAY: ('Byte values are:', 'byte_array_value'),
    ParameterType.PARAMETER_BOOL_ARRAY: ('Boolean values are:', 'bool_array_value'),
    ParameterType.PARAMETER_INTEGER_ARRAY: ('Integer values are:', 'integer_array_value'),
    ParameterType.PARAMETER_DOUBLE_ARRAY: ('Double values are:', 'double_array_value'),
    ParameterType.PARAMETER_STRING_ARRAY: ('String values are:', 'string_array_value'),
}


def add_param(parser):
    """Register the param verbs."""
    verbs = parser.add_subparsers(dest='verb', metavar='Commands')
    verbs.required = True
    p = verbs.add_parser('list', help='Output a list of available parameters')
    add_node_arguments(p)
    p.add_argument('node_name', nargs='?', help='Name of the ROS node')
    p.add_argument('--filter', help='Only parameters matching the regex expression will be '
                                    'showed. Supports `re` regex syntax.')
    p.add_argument('--include-hidden-nodes', action='store_true',
                   help='Consider hidden nodes as well')
    p.add_argument('--param-prefixes', nargs='+', default=[],
                   help='Only list parameters with the provided prefixes')
    p.add_argument('--param-type', action='store_true',
                   help='Print parameter types with parameter names')
    p.set_defaults(func=param_list)
    p = verbs.add_parser('get', help='Get parameter')
    add_node_arguments(p)
    p.add_argument('node_name', help='Name of the ROS node')
    p.add_argument('parameter_name', help='Name of the parameter')
    p.add_argument('--hide-type', action='store_true', help='Hide the type information')
    p.set_defaults(func=param_get)
    p = verbs.add_parser('set', help='Set parameter')
    add_node_arguments(p)
    p.add_argument('node_name', help='Name of the ROS node')
    p.add_argument('parameter_name', help='Name of the parameter')
    p.add_argument('value', help='Value of the parameter (YAML: 1, 1.5, true, "[1.0, 2.0]")')
    p.set_defaults(func=param_set)
    p = verbs.add_parser('dump', help='Show all of the parameters of a node in a YAML file '
                                      'format')
    add_node_arguments(p)
    p.add_argument('node_name', help='Name of the ROS node')
    p.set_defaults(func=param_dump)
    p = verbs.add_parser('load', help='Load parameter file for a node')
    add_node_arguments(p)
    p.add_argument('node_name', help='Name of the ROS node')
    p.add_argument('parameter_file', help='Parameter file')
    p.add_argument('--no-use-wildcard', action='store_true',
                   help="Do not load parameters in the '/**' namespace into the node")
    p.add_argument('--timeout', metavar='N', type=int, default=1,
                   help='Wait for N seconds until node becomes available (default %(default)s '
                        'sec)')
    p.set_defaults(func=param_load)


def _call(cli, node, srv_class, suffix, request):
    client = cli.node.create_client(srv_class, f'{node}/{suffix}')
    if not cli.wait_until(client.service_is_ready, SERVICE_TIMEOUT_S):
        raise CommandError('Wait for service timed out')
    future = client.call_async(request)
    cli.wait_until(future.done, SERVICE_TIMEOUT_S)
    if not future.done() or future.result() is None:
        raise CommandError(
            f"Exception while calling service of node '{node}': "
            f'{future.exception() if future.done() else "no response"}')
    return future.result()


def _list_names(cli, node, prefixes=()):
    request = ListParameters.Request()
    request.prefixes = list(prefixes)
    return sorted(_call(cli, node, ListParameters, 'list_parameters', request).result.names)


def _get_values(cli, node, names):
    request = GetParameters.Request()
    request.names = list(names)
    return _call(cli, node, GetParameters, 'get_parameters', request).values


def plain_value(pvalue):
    """Return the Python value of a ParameterValue (lists for arrays), None if not set."""
    entry = _GET_LABELS.get(pvalue.type)
    if entry is None:
        return None
    value = getattr(pvalue, entry[1])
    return list(value) if pvalue.type in (
        ParameterType.PARAMETER_BYTE_ARRAY, ParameterType.PARAMETER_BOOL_ARRAY,
        ParameterType.PARAMETER_INTEGER_ARRAY, ParameterType.PARAMETER_DOUBLE_ARRAY,
        ParameterType.PARAMETER_STRING_ARRAY) else value


def param_list(args):
    """Print the parameter names of one node or of every node."""
    regex = None
    if args.filter is not None:
        try:
            regex = re.compile(args.filter)
        except re.error as e:
            raise CommandError(f"Invalid --filter regex '{args.filter}': {e}") from None
    if not args.node_name:
        # Which nodes exist is a graph question: the daemon answers it when it runs (ros2cli's
        # node strategy); the parameter services are then called from a node of our own.
        with open_graph(args) as graph:
            graph.discover()
            nodes = graph.node_names(include_hidden=args.include_hidden_nodes)
    with CliNode(spin_time=args.spin_time) as cli:
        if args.node_name:
            cli.find_node(args.node_name)
            nodes = [absolute_node_name(args.node_name)]
        for node in nodes:
            try:
                names = _list_names(cli, node, args.param_prefixes)
            except CommandError as e:
                if args.node_name:
                    raise
                print(f"Exception while calling service of node '{node}': {e}",
                      file=sys.stderr)
                continue
            if regex is not None:
                names = [n for n in names if regex.match(n)]
            if not args.node_name and names:
                print(f'{node}:')
            types = {}
            if args.param_type and names:
                request = DescribeParameters.Request()
                request.names = names
                response = _call(cli, node, DescribeParameters, 'describe_parameters', request)
                types = {d.name: _TYPE_NAMES.get(d.type, 'unknown') for d in response.descriptors}
            for name in names:
                print(f'  {name} (type: {types[name]})' if args.param_type else f'  {name}')
    return 0


def param_get(args):
    """Print one parameter with ros2cli's type label."""
    node = absolute_node_name(args.node_name)
    with CliNode(spin_time=args.spin_time) as cli:
        cli.find_node(node)
        values = _get_values(cli, node, [args.parameter_name])
    if not values:
        raise CommandError('Parameter not set')
    pvalue = values[0]
    if pvalue.type == ParameterType.PARAMETER_NOT_SET:
        raise CommandError('Parameter not set.')
    entry = _GET_LABELS.get(pvalue.type)
    if entry is None:
        raise CommandError(f"Unknown parameter type '{pvalue.type}'")
    value = getattr(pvalue, entry[1])
    if args.hide_type:
        print(value)
    else:
        print(entry[0], value)
    return 0


def param_set(args):
    """Set one parameter; the node's refusal is a one-line error and exit code 1."""
    node = absolute_node_name(args.node_name)
    parameter = Parameter()
    parameter.name = args.parameter_name
    parameter.value = get_parameter_value(string_value=args.value)
    with CliNode(spin_time=args.spin_time) as cli:
        cli.find_node(node)
        request = SetParameters.Request()
        request.parameters = [parameter]
        response = _call(cli, node, SetParameters, 'set_parameters', request)
    result = response.results[0]
    if not result.successful:
        reason = f': {result.reason}' if result.reason else ''
        raise CommandError('Setting parameter failed' + reason)
    print('Set parameter successful' + (f': {result.reason}' if result.reason else ''))
    return 0


def _insert(tree, name, value):
    head, sep, rest = name.partition('.')
    if sep:
        _insert(tree.setdefault(head, {}), rest, value)
    else:
        tree[name] = value


def param_dump(args):
    """Print every parameter of a node as a parameters YAML file."""
    node = absolute_node_name(args.node_name)
    with CliNode(spin_time=args.spin_time) as cli:
        cli.find_node(node)
        names = _list_names(cli, node)
        values = _get_values(cli, node, names) if names else []
    tree = {}
    for name, pvalue in zip(names, values):
        _insert(tree, name, plain_value(pvalue))
    print(yaml.dump({node: {'ros__parameters': tree}}, default_flow_style=False))
    return 0


def param_load(args):
    """
    Set a node's parameters from a parameters YAML file, one result line each (ros2cli).

    As ros2cli: the node first (asked of the daemon when one runs; ``--timeout`` s for it to
    appear, else "Node not found"), then the file; a successful parameter is a line on
    stdout, a refused one on stderr.
    """
    node = absolute_node_name(args.node_name)
    with open_graph(args) as graph:
        graph.find_node(node, timeout=max(0, args.timeout))
        if isinstance(graph, CliNode):
            return _load_file(graph, node, args)
    with CliNode(spin_time=args.spin_time) as cli:
        return _load_file(cli, node, args)


def _merge(into, values):
    for key, value in values.items():
        if isinstance(value, dict) and isinstance(into.get(key), dict):
            _merge(into[key], value)
        else:
            into[key] = value


def _selected(path, node, use_wildcard):
    """
    Return the parameters of ``node`` in a parameters file: '/**' first, then the node's own.

    The node's own come from its absolute name, its relative name (root namespace) or the
    nested namespace form; they override the wildcard ones. Raises OSError, yaml.YAMLError,
    or RuntimeError when nothing in the file is for the node.
    """
    with open(path) as f:
        data = yaml.safe_load(f)
    namespace, base = node.rsplit('/', 1)
    sections = []
    if isinstance(data, dict):
        if use_wildcard:
            sections.append(data.get('/**'))
        sections += [data.get(node), data.get(base) if not namespace else None]
        nested = data.get(namespace or '/')
        if isinstance(nested, dict):
            sections.append(nested.get(base))
    merged, found = {}, False
    for section in sections:
        if isinstance(section, dict) and isinstance(section.get('ros__parameters'), dict):
            _merge(merged, section['ros__parameters'])
            found = True
    if not found:
        raise RuntimeError('Param file does not contain selected parameters')
    return merged


def _load_file(cli, node, args):
    import tempfile
    from rclpy.parameter import parameter_dict_from_yaml_file
    try:
        # the selection is ours (rclpy's differs between distros: Jazzy's refuses a file with
        # only '/**'); the conversion to parameters is rclpy's
        merged = _selected(args.parameter_file, node, not args.no_use_wildcard)
        with tempfile.NamedTemporaryFile('w', suffix='.yaml') as selected:
            yaml.safe_dump({node: {'ros__parameters': merged}}, selected)
            selected.flush()
            values = parameter_dict_from_yaml_file(selected.name, use_wildcard=False,
                                                   target_nodes=[node])
    except OSError as e:
        raise CommandError(str(e)) from None
    except (RuntimeError, yaml.YAMLError) as e:
        text = str(e).strip().splitlines()[0]
        if text.startswith('Param file does not contain'):
            # the node exists (checked first): nothing in the file is for it (ros2cli's words;
            # rclpy's differ between distros)
            text = 'Param file does not contain selected parameters'
        raise CommandError(text) from None
    request = SetParameters.Request()
    request.parameters = list(values.values())
    response = _call(cli, node, SetParameters, 'set_parameters', request)
    for parameter, result in zip(request.parameters, response.results):
        line = f'Set parameter {parameter.name} '
        line += 'successful' if result.successful else 'failed'
        if result.reason:
            line += f': {result.reason}'
        print(line, file=sys.stdout if result.successful else sys.stderr)
    return 0
