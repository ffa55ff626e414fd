# SPDX-License-Identifier: Apache-2.0
"""launch_process: start a process in a running launch from a test, and stop it after."""

import contextlib
import threading
from typing import Any, Callable, Iterator, Optional

import launch
from launch.events import matches_action
from launch.events.process import ProcessExited, ShutdownProcess


class ProcessProxy:
    """A view of one launched process for a test: state, exit code, output, waits."""

    def __init__(self, process_action: Any, proc_info: Any, proc_output: Any, *,
                 output_filter: Optional[Callable[[str], str]] = None) -> None:
        """Create the view of ``process_action`` in ``proc_info`` and ``proc_output``."""
        self._action = process_action
        self._proc_info = proc_info
        self._proc_output = proc_output
        self._output_filter = output_filter

    def _event(self) -> Any:
        if self._action not in self._proc_info.processes():
            return None
        return self._proc_info[self._action]

    @property
    def running(self) -> bool:
        """Return whether the process has started and not exited."""
        event = self._event()
        return event is not None and not isinstance(event, ProcessExited)

    @property
    def terminated(self) -> bool:
        """Return whether the process has exited."""
        return isinstance(self._event(), ProcessExited)

    @property
    def exit_code(self) -> Optional[int]:
        """Return the exit code, None while the process runs."""
        event = self._event()
        return event.returncode if isinstance(event, ProcessExited) else None

    def _text(self, stream: Optional[str]) -> str:
        text = self._proc_output.text(self._action, stream=stream)
        return self._output_filter(text) if self._output_filter else text

    @property
    def output(self) -> str:
        """Return everything the process wrote so far (stdout and stderr)."""
        return self._text(None)

    @property
    def stdout(self) -> str:
        """Return what the process wrote to stdout so far."""
        return self._text('stdout')

    @property
    def stderr(self) -> str:
        """Return what the process wrote to stderr so far."""
        return self._text('stderr')

    def wait_for_shutdown(self, timeout: float) -> bool:
        """Wait up to ``timeout`` seconds for the process to exit; return whether it did."""
        try:
            self._proc_info.assertWaitForShutdown(self._action, timeout=timeout)
        except AssertionError:
            return False
        return True

    def wait_for_output(self, condition: Optional[Callable[[str], bool]] = None,
                        timeout: float = 10) -> bool:
        """Wait up to ``timeout`` seconds until ``condition(output)`` (any output if None)."""
        done = threading.Event()
        check = condition or bool
        try:
            self._proc_output.assertWaitFor(
                None, self._action, timeout=timeout,
                output_filter=lambda text: text if check(
                    self._output_filter(text) if self._output_filter else text) else '')
            done.set()
        except AssertionError:
            pass
        return done.is_set()


@contextlib.contextmanager
def launch_process(launch_service: Any, process_action: Any, proc_info: Any,
                   proc_output: Any, **kwargs: Any) -> Iterator[ProcessProxy]:
    """
    Start ``process_action`` in the running ``launch_service``; stop it when the block ends.

    Yields a ProcessProxy. On leaving the block a process still running gets launch's
    ShutdownProcess (SIGINT, then the SIGTERM / SIGKILL escalation) and is waited for.
    """
    launch_service.include_launch_description(launch.LaunchDescription([process_action]))
    try:
        yield ProcessProxy(process_action, proc_info, proc_output, **kwargs)
    finally:
        proxy = ProcessProxy(process_action, proc_info, proc_output)
        if not proxy.terminated:
            launch_service.emit_event(
                ShutdownProcess(process_matcher=matches_action(process_action)))
            proxy.wait_for_shutdown(timeout=15.0)
