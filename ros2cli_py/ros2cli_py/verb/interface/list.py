# SPDX-License-Identifier: Apache-2.0
"""ros2 interface list."""

import argparse

from ros2cli_py import ament
from ros2cli_py.api.interface import add_kind_filters
from ros2cli_py.api.interface import selected_kinds

HELP = 'List all interface types available'


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """Add the verb's arguments."""
    add_kind_filters(parser)


def main(args: argparse.Namespace) -> int:
    """Print every interface, grouped under Messages / Services / Actions."""
    interfaces = ament.all_interfaces()
    titles = {'msg': 'Messages:', 'srv': 'Services:', 'action': 'Actions:'}
    for kind in selected_kinds(args):
        print(titles[kind])
        for package in sorted(interfaces):
            for name in interfaces[package][kind]:
                print(f'    {package}/{kind}/{name}')
    return 0
