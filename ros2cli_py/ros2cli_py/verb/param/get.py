# SPDX-License-Identifier: Apache-2.0
"""ros2 param get."""

import argparse

from rcl_interfaces.msg import ParameterType
from ros2cli_py.api.common import add_node_arguments
from ros2cli_py.api.param import add_node_name_argument
from ros2cli_py.api.param import add_parameter_name_argument
from ros2cli_py.api.param import GET_LABELS
from ros2cli_py.api.param import get_values
from ros2cli_py.errors import CommandError
from ros2cli_py.graph import absolute_node_name
from ros2cli_py.graph import CliNode

HELP = 'Get parameter'


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """Add the verb's arguments."""
    add_node_arguments(parser)
    add_node_name_argument(parser)
    add_parameter_name_argument(parser)
    parser.add_argument('--hide-type', action='store_true', help='Hide the type information')


def main(args: argparse.Namespace) -> int:
    """Print one parameter with ros2cli's type label."""
    node = absolute_node_name(args.node_name)
    with CliNode(spin_time=args.spin_time) as cli:
        cli.find_node(node)
        values = get_values(cli, node, [args.parameter_name])
    if not values:
        raise CommandError('Parameter not set')
    pvalue = values[0]
    if pvalue.type == ParameterType.PARAMETER_NOT_SET:
        raise CommandError('Parameter not set.')
    entry = GET_LABELS.get(pvalue.type)
    if entry is None:
        raise CommandError(f"Unknown parameter type '{pvalue.type}'")
    value = getattr(pvalue, entry[1])
    if args.hide_type:
        print(value)
    else:
        print(entry[0], value)
    return 0
