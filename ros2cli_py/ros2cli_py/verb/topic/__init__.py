# SPDX-License-Identifier: Apache-2.0
"""ros2 topic list | type | find | info | echo | hz | bw | delay | pub."""

import argparse

from ros2cli_py.verb import add_verbs

VERBS = ('list', 'type', 'find', 'info', 'echo', 'hz', 'bw', 'delay', 'pub')


def add_topic(parser: argparse.ArgumentParser) -> None:
    """Register the topic verbs."""
    add_verbs(parser, __name__, VERBS)
