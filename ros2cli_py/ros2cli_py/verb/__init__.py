# SPDX-License-Identifier: Apache-2.0
"""
The commands: ``verb/<command>/`` with one module per verb, ``verb/<command>.py`` without verbs.

Each ``ros2cli_py.verb.<command>`` has ``add_<command>(parser)``, which registers its verbs
(or its arguments). A verb module has ``HELP`` (its one-line help), ``add_arguments(parser)``
and ``main(args)`` (the exit code).
"""

import argparse
import importlib
from typing import Sequence


def add_verbs(parser: argparse.ArgumentParser, package: str, verbs: Sequence[str]) -> None:
    """Register the verb modules ``<package>.<verb>`` of a command, in the order given."""
    sub = parser.add_subparsers(dest='verb', metavar='Commands')
    sub.required = True
    for name in verbs:
        module = importlib.import_module(f'{package}.{name}')
        verb_parser = sub.add_parser(name, help=module.HELP)
        module.add_arguments(verb_parser)
        verb_parser.set_defaults(func=module.main)
