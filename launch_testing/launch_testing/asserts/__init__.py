# SPDX-License-Identifier: Apache-2.0
"""Asserts on the output and exit codes of launched processes."""

from .assert_exit_codes import assertExitCodes
from .assert_exit_codes import EXIT_FORCED
from .assert_exit_codes import EXIT_OK
from .assert_exit_codes import EXIT_SIGINT
from .assert_exit_codes import EXIT_SIGKILL
from .assert_exit_codes import EXIT_SIGQUIT
from .assert_exit_codes import EXIT_SIGSEGV
from .assert_output import assertInStderr
from .assert_output import assertInStdout
from .assert_output import assertInStream
from .assert_sequential_output import assertSequentialStdout

__all__ = [
    'assertExitCodes', 'assertInStderr', 'assertInStdout', 'assertInStream',
    'assertSequentialStdout', 'EXIT_FORCED', 'EXIT_OK', 'EXIT_SIGINT', 'EXIT_SIGKILL',
    'EXIT_SIGQUIT', 'EXIT_SIGSEGV',
]
