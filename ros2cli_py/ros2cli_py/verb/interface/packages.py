# SPDX-License-Identifier: Apache-2.0
"""ros2 interface packages."""

import argparse

from ros2cli_py import ament
from ros2cli_py.api.interface import add_kind_filters
from ros2cli_py.api.interface import selected_kinds

HELP = 'Output a list of packages that provide interfaces'


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """Add the verb's arguments."""
    add_kind_filters(parser)


def main(args: argparse.Namespace) -> int:
    """Print the packages that provide interfaces (of the selected kinds)."""
    kinds = selected_kinds(args)
    for package, found in sorted(ament.all_interfaces().items()):
        if any(found[k] for k in kinds):
            print(package)
    return 0
