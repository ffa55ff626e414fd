# SPDX-License-Identifier: Apache-2.0
"""ros2 action list | info | type | send_goal."""

import argparse

from ros2cli_py.verb import add_verbs

VERBS = ('list', 'info', 'type', 'send_goal')


def add_action(parser: argparse.ArgumentParser) -> None:
    """Register the action verbs."""
    add_verbs(parser, __name__, VERBS)
