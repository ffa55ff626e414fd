# SPDX-License-Identifier: Apache-2.0
"""ros2 interface package."""

import argparse

from ros2cli_py import ament
from ros2cli_py.api.interface import add_kind_filters
from ros2cli_py.api.interface import selected_kinds

HELP = 'Output a list of available interface types within one package'


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """Add the verb's arguments."""
    parser.add_argument('package_name', help="Package name (e.g. 'example_interfaces')")
    add_kind_filters(parser)


def main(args: argparse.Namespace) -> int:
    """Print the interfaces of one package."""
    found = ament.package_interfaces(args.package_name)
    kinds = selected_kinds(args)
    names = sorted(f'{kind}/{name}' for kind in kinds for name in found[kind])
    for name in names:
        print(f'{args.package_name}/{name}')
    return 0
