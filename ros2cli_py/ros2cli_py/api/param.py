# SPDX-License-Identifier: Apache-2.0
"""What the param verbs share: their arguments, the parameter services and type names."""

import argparse
from typing import Any, Dict, Iterable, List, Tuple

from rcl_interfaces.msg import ParameterType
from rcl_interfaces.srv import GetParameters
from rcl_interfaces.srv import ListParameters
from ros2cli_py.errors import CommandError
from ros2cli_py.graph import CliNode

SERVICE_TIMEOUT_S = 5.0

#: the type names of `param list --param-type`
TYPE_NAMES: Dict[int, str] = {
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

#: (label of `ros2 param get`, attribute of ParameterValue) per type
GET_LABELS: Dict[int, Tuple[str, str]] = {
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

_ARRAY_TYPES = (
    ParameterType.PARAMETER_BYTE_ARRAY, ParameterType.PARAMETER_BOOL_ARRAY,
    ParameterType.PARAMETER_INTEGER_ARRAY, ParameterType.PARAMETER_DOUBLE_ARRAY,
    ParameterType.PARAMETER_STRING_ARRAY)


def add_node_name_argument(parser: argparse.ArgumentParser) -> None:
    """Add the node positional of get, set, dump and load."""
    parser.add_argument('node_name', help='Name of the ROS node')


def add_parameter_name_argument(parser: argparse.ArgumentParser) -> None:
    """Add the parameter positional of get and set."""
    parser.add_argument('parameter_name', help='Name of the parameter')


def call(cli: CliNode, node: str, srv_class: Any, suffix: str, request: Any) -> Any:
    """Call the parameter service ``<node>/<suffix>``; CommandError on timeout or failure."""
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


def list_names(cli: CliNode, node: str, prefixes: Iterable[str] = ()) -> List[str]:
    """Return the sorted parameter names of a node (with one of ``prefixes``, if given)."""
    request = ListParameters.Request()
    request.prefixes = list(prefixes)
    return sorted(call(cli, node, ListParameters, 'list_parameters', request).result.names)


def get_values(cli: CliNode, node: str, names: Iterable[str]) -> Any:
    """Return the ParameterValues of parameters of a node."""
    request = GetParameters.Request()
    request.names = list(names)
    return call(cli, node, GetParameters, 'get_parameters', request).values


def plain_value(pvalue: Any) -> Any:
    """Return the Python value of a ParameterValue (lists for arrays), None if not set."""
    entry = GET_LABELS.get(pvalue.type)
    if entry is None:
        return None
    value = getattr(pvalue, entry[1])
    return list(value) if pvalue.type in _ARRAY_TYPES else value
