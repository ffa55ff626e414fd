# SPDX-License-Identifier: Apache-2.0
"""ros2 node list | info."""

import argparse

from ros2cli_py.verb import add_verbs

VERBS = ('list', 'info')


def add_node(parser: argparse.ArgumentParser) -> None:
    """Register the node verbs."""
    add_verbs(parser, __name__, VERBS)
