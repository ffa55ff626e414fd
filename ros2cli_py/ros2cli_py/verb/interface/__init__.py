# SPDX-License-Identifier: Apache-2.0
"""ros2 interface list | packages | package | show."""

import argparse

from ros2cli_py.verb import add_verbs

VERBS = ('list', 'packages', 'package', 'show')


def add_interface(parser: argparse.ArgumentParser) -> None:
    """Register the interface verbs."""
    add_verbs(parser, __name__, VERBS)
