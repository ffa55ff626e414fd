# SPDX-License-Identifier: Apache-2.0
"""ros2 service list | type | find | echo | call."""

import argparse

from ros2cli_py.verb import add_verbs

VERBS = ('list', 'type', 'find', 'echo', 'call')


def add_service(parser: argparse.ArgumentParser) -> None:
    """Register the service verbs."""
    add_verbs(parser, __name__, VERBS)
