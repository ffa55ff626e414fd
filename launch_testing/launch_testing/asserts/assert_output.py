# SPDX-License-Identifier: Apache-2.0
"""assertInStdout, assertInStderr, assertInStream (PYTEST_DONT_REWRITE)."""

import re
from typing import Callable, Optional, Pattern, TYPE_CHECKING, Union

from ..util import CmdArgs, ProcessSpec

if TYPE_CHECKING:
    from ..io_handler import IoHandler


def assertInStream(proc_output: 'IoHandler',  # noqa: N802
                   expected_output: Union[str, Pattern[str]],
                   process: ProcessSpec = None, cmd_args: CmdArgs = None, *,
                   output_filter: Optional[Callable[[str], str]] = None,
                   strict_proc_matching: bool = True, stream: str = 'stdout') -> None:
    """Assert that the output so far contains ``expected_output`` (text or regex)."""
    text = proc_output.text(process, cmd_args, stream=stream,
                            strict_proc_matching=strict_proc_matching)
    if output_filter is not None:
        text = output_filter(text)
    if isinstance(expected_output, re.Pattern):
        assert expected_output.search(text), \
            f"Did not find '{expected_output.pattern}' in output for process {process!r}"
    else:
        assert expected_output in text, \
            f"Did not find '{expected_output}' in output for process {process!r}"


def assertInStdout(proc_output: 'IoHandler',  # noqa: N802
                   expected_output: Union[str, Pattern[str]],
                   process: ProcessSpec = None, cmd_args: CmdArgs = None, *,
                   output_filter: Optional[Callable[[str], str]] = None,
                   strict_proc_matching: bool = True) -> None:
    """Assert that the stdout so far contains ``expected_output``."""
    assertInStream(proc_output, expected_output, process, cmd_args, output_filter=output_filter,
                   strict_proc_matching=strict_proc_matching, stream='stdout')


def assertInStderr(proc_output: 'IoHandler',  # noqa: N802
                   expected_output: Union[str, Pattern[str]],
                   process: ProcessSpec = None, cmd_args: CmdArgs = None, *,
                   output_filter: Optional[Callable[[str], str]] = None,
                   strict_proc_matching: bool = True) -> None:
    """Assert that the stderr so far contains ``expected_output``."""
    assertInStream(proc_output, expected_output, process, cmd_args, output_filter=output_filter,
                   strict_proc_matching=strict_proc_matching, stream='stderr')
