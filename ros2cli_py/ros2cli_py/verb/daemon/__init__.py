# SPDX-License-Identifier: Apache-2.0
"""ros2 daemon start | stop | status."""

import argparse

from ros2cli_py.verb import add_verbs

VERBS = ('start', 'stop', 'status')


def add_daemon(parser: argparse.ArgumentParser) -> None:
    """Register the daemon verbs."""
    add_verbs(parser, __name__, VERBS)
