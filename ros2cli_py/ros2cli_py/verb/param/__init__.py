# SPDX-License-Identifier: Apache-2.0
"""ros2 param list | get | set | dump | load."""

import argparse

from ros2cli_py.verb import add_verbs

VERBS = ('list', 'get', 'set', 'dump', 'load')


def add_param(parser: argparse.ArgumentParser) -> None:
    """Register the param verbs."""
    add_verbs(parser, __name__, VERBS)
