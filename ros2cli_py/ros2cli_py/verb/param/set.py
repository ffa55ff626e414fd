# SPDX-License-Identifier: Apache-2.0
"""ros2 param set."""

import argparse

from rcl_interfaces.msg import Parameter
from rcl_interfaces.srv import SetParameters
from rclpy.parameter import get_parameter_value
from ros2cli_py.api.common import add_node_arguments
from ros2cli_py.api.param import add_node_name_argument
from ros2cli_py.api.param import add_parameter_name_argument
from ros2cli_py.api.param import call
from ros2cli_py.errors import CommandError
from ros2cli_py.graph import absolute_node_name
from ros2cli_py.graph import CliNode

HELP = 'Set parameter'


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """Add the verb's arguments."""
    add_node_arguments(parser)
    add_node_name_argument(parser)
    add_parameter_name_argument(parser)
    parser.add_argument('value',
                        help='Value of the parameter (YAML: 1, 1.5, true, "[1.0, 2.0]")')


def main(args: argparse.Namespace) -> int:
    """Set one parameter; the node's refusal is a one-line error and exit code 1."""
    node = absolute_node_name(args.node_name)
    parameter = Parameter()
    parameter.name = args.parameter_name
    parameter.value = get_parameter_value(string_value=args.value)
    with CliNode(spin_time=args.spin_time) as cli:
        cli.find_node(node)
        request = SetParameters.Request()
        request.parameters = [parameter]
        response = call(cli, node, SetParameters, 'set_parameters', request)
    result = response.results[0]
    if not result.successful:
        reason = f': {result.reason}' if result.reason else ''
        raise CommandError('Setting parameter failed' + reason)
    print('Set parameter successful' + (f': {result.reason}' if result.reason else ''))
    return 0
