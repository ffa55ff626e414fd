# SPDX-License-Identifier: Apache-2.0
"""ros2 param load."""

import argparse
import sys
from typing import Any, Dict, List, Optional

from rcl_interfaces.srv import SetParameters
from ros2cli_py.api.common import add_node_arguments
from ros2cli_py.api.param import add_node_name_argument
from ros2cli_py.api.param import call
from ros2cli_py.errors import CommandError
from ros2cli_py.graph import absolute_node_name
from ros2cli_py.graph import CliNode
from ros2cli_py.graph import open_graph
import yaml

HELP = 'Load parameter file for a node'


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """Add the verb's arguments."""
    add_node_arguments(parser)
    add_node_name_argument(parser)
    parser.add_argument('parameter_file', help='Parameter file')
    parser.add_argument('--no-use-wildcard', action='store_true',
                        help="Do not load parameters in the '/**' namespace into the node")
    parser.add_argument('--timeout', metavar='N', type=int, default=1,
                        help='Wait for N seconds until node becomes available (default '
                             '%(default)s sec)')


def main(args: argparse.Namespace) -> int:
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


def _merge(into: Dict[str, Any], values: Dict[str, Any]) -> None:
    for key, value in values.items():
        if isinstance(value, dict) and isinstance(into.get(key), dict):
            _merge(into[key], value)
        else:
            into[key] = value


def _selected(path: str, node: str, use_wildcard: bool) -> Dict[str, Any]:
    """
    Return the parameters of ``node`` in a parameters file: '/**' first, then the node's own.

    The node's own come from its absolute name, its relative name (root namespace) or the
    nested namespace form; they override the wildcard ones. Raises OSError, yaml.YAMLError,
    or RuntimeError when nothing in the file is for the node.
    """
    with open(path) as f:
        data = yaml.safe_load(f)
    namespace, base = node.rsplit('/', 1)
    sections: List[Optional[Any]] = []
    if isinstance(data, dict):
        if use_wildcard:
            sections.append(data.get('/**'))
        sections += [data.get(node), data.get(base) if not namespace else None]
        nested = data.get(namespace or '/')
        if isinstance(nested, dict):
            sections.append(nested.get(base))
    merged: Dict[str, Any] = {}
    found = False
    for section in sections:
        if isinstance(section, dict) and isinstance(section.get('ros__parameters'), dict):
            _merge(merged, section['ros__parameters'])
            found = True
    if not found:
        raise RuntimeError('Param file does not contain selected parameters')
    return merged


def _load_file(cli: CliNode, node: str, args: argparse.Namespace) -> int:
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
    response = call(cli, node, SetParameters, 'set_parameters', request)
    for parameter, result in zip(request.parameters, response.results):
        line = f'Set parameter {parameter.name} '
        line += 'successful' if result.successful else 'failed'
        if result.reason:
            line += f': {result.reason}'
        print(line, file=sys.stdout if result.successful else sys.stderr)
    return 0
