# SPDX-License-Identifier: Apache-2.0
"""ros2 doctor | wtf [hello]: ros2doctor's command (package ros2doctor of this distribution)."""

import argparse
from typing import NoReturn

from ros2cli_py.errors import CommandError


def add_doctor(parser: argparse.ArgumentParser) -> None:
    """Register ros2doctor's options and verbs on the ``doctor`` (or ``wtf``) parser."""
    try:
        from ros2doctor.command.doctor import DoctorCommand
    except ImportError as e:
        why = str(e)

        def missing(args: argparse.Namespace) -> NoReturn:
            raise CommandError(f'ros2 doctor: the ros2doctor package is not importable ({why}); '
                               'rebuild ros2cli_py', code=2)
        parser.set_defaults(func=missing)
        return
    command = DoctorCommand()
    command.add_arguments(parser, parser.prog.split()[-1])
    parser.set_defaults(func=lambda args: command.main(parser=parser, args=args))
