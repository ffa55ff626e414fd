# SPDX-License-Identifier: Apache-2.0
"""proc_output: the output of the launched processes, and waiting for it."""

import re
import threading
import time
from typing import Any, Callable, Dict, Iterator, List, Match, Optional, Pattern, Union

from launch.events.process import ProcessIO

from .util import CmdArgs, NoMatchingProcessException, ProcessSpec, resolveProcesses


class IoHandler:
    """The ProcessIO events of the launch, per process action, in order."""

    def __init__(self) -> None:
        """Create an empty handler."""
        self._events: List[ProcessIO] = []
        self._by_action: Dict[Any, List[ProcessIO]] = {}

    def track(self, event: ProcessIO) -> None:
        """Record an output event."""
        self._events.append(event)
        self._by_action.setdefault(event.action, []).append(event)

    def __iter__(self) -> Iterator[ProcessIO]:
        """Iterate over every output event."""
        return iter(list(self._events))

    def processes(self) -> List[Any]:
        """Return the process actions that produced output."""
        return list(self._by_action)

    def process_names(self) -> List[str]:
        """Return the names (``name-N``) of the processes that produced output."""
        return [a.process_details['name'] for a in self._by_action if a.process_details]

    def __getitem__(self, key: Any) -> List[ProcessIO]:
        """Return the output events of a process (an action, or a name)."""
        if isinstance(key, str):
            [key] = resolveProcesses(self, process=key)
        return list(self._by_action.get(key, []))

    def text(self, process: ProcessSpec = None, cmd_args: CmdArgs = None, *,
             stream: Optional[str] = None,
             strict_proc_matching: bool = True) -> str:
        """Return the output so far (of the matching processes and stream) as text."""
        try:
            actions = resolveProcesses(self, process=process, cmd_args=cmd_args,
                                       strict_proc_matching=strict_proc_matching)
        except NoMatchingProcessException:
            return ''
        chunks = []
        for event in self._events:
            if event.action not in actions:
                continue
            if stream == 'stdout' and not event.from_stdout:
                continue
            if stream == 'stderr' and not event.from_stderr:
                continue
            chunks.append(event.text.decode(errors='replace'))
        return ''.join(chunks)


class ActiveIoHandler(IoHandler):
    """An IoHandler the tests can wait on while the launch runs (thread-safe)."""

    def __init__(self) -> None:
        """Create an empty handler."""
        super().__init__()
        self._condition = threading.Condition()

    def track(self, event: ProcessIO) -> None:
        """Record an output event and wake the waiting tests."""
        with self._condition:
            super().track(event)
            self._condition.notify_all()

    def assertWaitFor(self, expected_output: Union[str, Pattern[str], None] = None,  # noqa: N802
                      process: ProcessSpec = None, cmd_args: CmdArgs = None, *,
                      output_filter: Optional[Callable[[str], str]] = None,
                      timeout: float = 10, stream: Optional[str] = None,
                      strict_proc_matching: bool = True) -> Union[Match[str], bool]:
        """
        Wait until the output contains ``expected_output`` (text, or a compiled regex).

        Of ``process`` (an action or a name; None: any) and ``stream`` ('stdout',
        'stderr', None: both). Returns the match (regex) or True; AssertionError after
        ``timeout`` seconds.
        """
        if stream not in (None, 'stdout', 'stderr'):
            raise ValueError(f"stream must be 'stdout', 'stderr' or None, got '{stream}'")
        deadline = time.monotonic() + timeout

        def found() -> Union[Optional[Match[str]], bool]:
            text = self.text(process, cmd_args, stream=stream,
                             strict_proc_matching=strict_proc_matching)
            if output_filter is not None:
                text = output_filter(text)
            if isinstance(expected_output, re.Pattern):
                return expected_output.search(text)
            return expected_output in text if expected_output is not None else bool(text)

        with self._condition:
            while True:
                result = found()
                if result:
                    return result if isinstance(expected_output, re.Pattern) else True
                remaining = deadline - time.monotonic()
                if remaining <= 0:
                    where = f' from process {process!r}' if process is not None else ''
                    shown = getattr(expected_output, 'pattern', expected_output)
                    raise AssertionError(f"Waiting for output '{shown}'{where} timed out")
                self._condition.wait(min(remaining, 0.5))

    def waitFor(self, expected_output: Union[str, Pattern[str], None] = None,  # noqa: N802
                process: ProcessSpec = None, cmd_args: CmdArgs = None, *,
                output_filter: Optional[Callable[[str], str]] = None, timeout: float = 10,
                stream: Optional[str] = None, strict_proc_matching: bool = True) -> bool:
        """Like assertWaitFor, but return False instead of raising after ``timeout``."""
        try:
            self.assertWaitFor(expected_output, process, cmd_args, output_filter=output_filter,
                               timeout=timeout, stream=stream,
                               strict_proc_matching=strict_proc_matching)
        except AssertionError:
            return False
        return True
