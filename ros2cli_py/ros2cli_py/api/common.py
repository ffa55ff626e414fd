# SPDX-License-Identifier: Apache-2.0
"""The arguments and values that the verbs of several commands share (imports nothing heavy)."""

import argparse
from typing import Any, Dict

from ros2cli_py.argtypes import positive_float
from ros2cli_py.errors import CommandError


def add_node_arguments(parser: argparse.ArgumentParser) -> None:
    """ros2cli's node-strategy options: --spin-time (direct discovery) and --no-daemon."""
    parser.add_argument('--spin-time', type=positive_float, default=None,
                        help='Spin time in seconds to wait for discovery (default: until the '
                             'graph settles, 1 to 5 s)')
    parser.add_argument('--no-daemon', action='store_true',
                        help='Do not spawn nor use an already running daemon')


def add_sim_time_argument(parser: argparse.ArgumentParser) -> None:
    """ros2cli's -s/--use-sim-time: the command's node takes its time from /clock."""
    parser.add_argument('-s', '--use-sim-time', action='store_true',
                        help='Enable ROS simulation time')


def add_show_types_argument(parser: argparse.ArgumentParser, what: str) -> None:
    """-t/--show-types of the listing verbs (``what``: 'topic', 'service', 'action')."""
    parser.add_argument('-t', '--show-types', action='store_true',
                        help=f'Additionally show the {what} type')


def add_count_argument(parser: argparse.ArgumentParser, what: str) -> None:
    """-c/--count-<what> of the listing verbs (``what``: 'topics', 'services', ...)."""
    parser.add_argument('-c', f'--count-{what}', action='store_true',
                        help=f'Only display the number of {what} discovered')


def add_include_hidden_argument(parser: argparse.ArgumentParser, what: str) -> None:
    """--include-hidden-<what> (``what``: 'topics', 'services', 'nodes')."""
    parser.add_argument(f'--include-hidden-{what}', action='store_true',
                        help=f'Consider hidden {what} as well')


def parse_yaml_mapping(text: str) -> Dict[str, Any]:
    """Parse a YAML mapping from the command line; CommandError for anything else."""
    import yaml
    try:
        values = yaml.safe_load(text)
    except yaml.YAMLError as e:
        detail = ' '.join(str(e).split())
        raise CommandError(f'The passed value is not valid YAML: {detail}') from None
    if values is None:
        values = {}
    if not isinstance(values, dict):
        raise CommandError('The passed value needs to be a dictionary in YAML format')
    return values
