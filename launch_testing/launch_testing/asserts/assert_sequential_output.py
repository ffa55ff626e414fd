# SPDX-License-Identifier: Apache-2.0
"""assertSequentialStdout: output that appears in a given order (PYTEST_DONT_REWRITE)."""

import contextlib
from typing import Iterator, TYPE_CHECKING

from ..util import CmdArgs, ProcessSpec, resolveProcesses

if TYPE_CHECKING:
    from ..io_handler import IoHandler


class SequentialTextChecker:
    """Finds each expected text after the previous one in a process's stdout."""

    def __init__(self, text: str) -> None:
        """Check ``text``."""
        self._text = text
        self._position = 0

    def assertInStdout(self, expected_output: str) -> None:  # noqa: N802
        """Assert that ``expected_output`` comes after what was found before."""
        found = self._text.find(expected_output, self._position)
        assert found >= 0, f"'{expected_output}' not found"
        self._position = found + len(expected_output)

    def assertInText(self, expected_output: str) -> None:  # noqa: N802
        """Assert that ``expected_output`` comes after what was found before."""
        self.assertInStdout(expected_output)


@contextlib.contextmanager
def assertSequentialStdout(proc_output: 'IoHandler', process: ProcessSpec,  # noqa: N802
                           cmd_args: CmdArgs = None) -> Iterator[SequentialTextChecker]:
    """Context manager: ``cm.assertInStdout(text)`` in the order the process printed them."""
    [action] = resolveProcesses(proc_output, process=process, cmd_args=cmd_args)
    yield SequentialTextChecker(proc_output.text(action, stream='stdout'))
