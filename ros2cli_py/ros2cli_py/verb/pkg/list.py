# SPDX-License-Identifier: Apache-2.0
"""ros2 pkg list."""

import argparse

from ros2cli_py import ament

HELP = 'Output a list of available packages'


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """Add the verb's arguments (none)."""


def main(args: argparse.Namespace) -> int:
    """Print every package name."""
    for name in ament.package_names():
        print(name)
    return 0
