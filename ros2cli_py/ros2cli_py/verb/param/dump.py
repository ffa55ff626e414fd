# SPDX-License-Identifier: Apache-2.0
"""ros2 param dump."""

import argparse
from typing import Any, Dict, List

from ros2cli_py.api.common import add_node_arguments
from ros2cli_py.api.param import add_node_name_argument
from ros2cli_py.api.param import get_values
from ros2cli_py.api.param import list_names
from ros2cli_py.api.param import plain_value
from ros2cli_py.graph import absolute_node_name
from ros2cli_py.graph import CliNode
import yaml

HELP = 'Show all of the parameters of a node in a YAML file format'


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """Add the verb's arguments."""
    add_node_arguments(parser)
    add_node_name_argument(parser)


def _insert(tree: Dict[str, Any], name: str, value: Any) -> None:
    head, sep, rest = name.partition('.')
    if sep:
        _insert(tree.setdefault(head, {}), rest, value)
    else:
        tree[name] = value


def main(args: argparse.Namespace) -> int:
    """Print every parameter of a node as a parameters YAML file."""
    node = absolute_node_name(args.node_name)
    with CliNode(spin_time=args.spin_time) as cli:
        cli.find_node(node)
        names = list_names(cli, node)
        values: List[Any] = get_values(cli, node, names) if names else []
    tree: Dict[str, Any] = {}
    for name, pvalue in zip(names, values):
        _insert(tree, name, plain_value(pvalue))
    print(yaml.dump({node: {'ros__parameters': tree}}, default_flow_style=False))
    return 0
