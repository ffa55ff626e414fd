# SPDX-License-Identifier: Apache-2.0
"""assertInStdout, assertInStderr, assertInStream (PYTEST_DONT_REWRITE)."""

import re


def assertInStream(proc_output, expected_output, process=None, cmd_args=None, *,  # noqa: N802
                   output_filter=None, strict_proc_matching=True, stream='stdout') -> None:
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


def assertInStdout(proc_output, expected_output, process=None, cmd_args=None, *,  # noqa: N802
                   output_filter=None, strict_proc_matching=True) -> None:
    """Assert that the stdout so far contains ``expected_output``."""
    assertInStream(proc_output, expected_output, process, cmd_args, output_filter=output_filter,
                   strict_proc_matching=strict_proc_matching, stream='stdout')


def assertInStderr(proc_output, expected_output, process=None, cmd_args=None, *,  # noqa: N802
                   output_filter=None, strict_proc_matching=True) -> None:
    """Assert that the stderr so far contains ``expected_output``."""
    assertInStream(proc_output, expected_output, process, cmd_args, output_filter=output_filter,
                   strict_proc_matching=strict_proc_matching, stream='stderr')
