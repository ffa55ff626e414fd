# SPDX-License-Identifier: Apache-2.0
"""ros2 pkg list | prefix | executables."""

import argparse

from ros2cli_py.verb import add_verbs

VERBS = ('list', 'prefix', 'executables')


def add_pkg(parser: argparse.ArgumentParser) -> None:
    """Register the pkg verbs."""
    add_verbs(parser, __name__, VERBS)
