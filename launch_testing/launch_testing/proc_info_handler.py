# SPDX-License-Identifier: Apache-2.0
"""proc_info: the starts and exits of the launched processes, and waiting for them."""

import threading
import time
from typing import Any, Dict, Iterator, List, Optional, Tuple, Union

from launch.events.process import ProcessExited, ProcessStarted, RunningProcessEvent

from .util import CmdArgs, NoMatchingProcessException, ProcessSpec, resolveProcesses


class ProcInfoHandler:
    """The last ProcessStarted / ProcessExited event of every process action."""

    def __init__(self) -> None:
        """Create an empty handler."""
        self._info: Dict[Any, Any] = {}

    def track(self, event: RunningProcessEvent) -> None:
        """Record a start or exit event."""
        self._info[event.action] = event

    def processes(self) -> List[Any]:
        """Return the process actions seen."""
        return list(self._info)

    def process_names(self) -> List[str]:
        """Return the names (``name-N``) of the processes seen."""
        return [a.process_details['name'] for a in self._info if a.process_details]

    def __iter__(self) -> Iterator[Any]:
        """Iterate over the last event of every process."""
        return iter(list(self._info.values()))

    def __getitem__(self, key: Any) -> Any:
        """Return the last event of a process (an action, or a name)."""
        if isinstance(key, str):
            [key] = resolveProcesses(self, process=key)
        return self._info[key]


class ActiveProcInfoHandler(ProcInfoHandler):
    """A ProcInfoHandler the tests can wait on while the launch runs (thread-safe)."""

    def __init__(self) -> None:
        """Create an empty handler."""
        super().__init__()
        self._condition = threading.Condition()

    def track(self, event: RunningProcessEvent) -> None:
        """Record an event and wake the waiting tests."""
        with self._condition:
            super().track(event)
            self._condition.notify_all()

    def _wait(self, process: ProcessSpec, cmd_args: CmdArgs, timeout: float,
              kinds: Union[type, Tuple[type, ...]], what: str) -> None:
        deadline = time.monotonic() + timeout
        with self._condition:
            while True:
                try:
                    actions = resolveProcesses(self, process=process, cmd_args=cmd_args)
                    if all(isinstance(self._info[a], kinds) for a in actions):
                        return
                except NoMatchingProcessException:
                    pass
                remaining = deadline - time.monotonic()
                if remaining <= 0:
                    raise AssertionError(f'Timed out waiting for process {process!r} to {what}')
                self._condition.wait(min(remaining, 0.5))

    def assertWaitForShutdown(self, process: ProcessSpec,  # noqa: N802
                              cmd_args: CmdArgs = None, *,
                              timeout: float = 10) -> None:
        """Wait until the process has exited; AssertionError after ``timeout`` seconds."""
        self._wait(process, cmd_args, timeout, ProcessExited, 'exit')

    def assertWaitForStartup(self, process: ProcessSpec,  # noqa: N802
                             cmd_args: CmdArgs = None, *,
                             timeout: float = 10) -> None:
        """Wait until the process has started; AssertionError after ``timeout`` seconds."""
        self._wait(process, cmd_args, timeout, (ProcessStarted, ProcessExited), 'start')

    def waitForShutdown(self, process: ProcessSpec,  # noqa: N802
                        cmd_args: CmdArgs = None, *,
                        timeout: float = 10) -> bool:
        """Like assertWaitForShutdown, but return False instead of raising."""
        try:
            self.assertWaitForShutdown(process, cmd_args, timeout=timeout)
        except AssertionError:
            return False
        return True

    def waitForStartup(self, process: ProcessSpec,  # noqa: N802
                       cmd_args: CmdArgs = None, *,
                       timeout: float = 10) -> bool:
        """Like assertWaitForStartup, but return False instead of raising."""
        try:
            self.assertWaitForStartup(process, cmd_args, timeout=timeout)
        except AssertionError:
            return False
        return True

    def returncode(self, process: Any) -> Optional[int]:
        """Return the exit code of a process, None while it runs."""
        event = self[process]
        return event.returncode if isinstance(event, ProcessExited) else None
