# SPDX-License-Identifier: Apache-2.0
"""
An executable under test as a subprocess: start it, read and wait on its output, stop it.

Output goes to a temporary file, never a pipe: a node whose pipe nobody reads would block
on a full pipe and stall. Each process starts in its own session, so a signal a test sends
reaches only it, and the terminal's Ctrl-C never reaches it.
"""

import os
import re
import signal
import subprocess
import tempfile
import time
from types import TracebackType
from typing import IO, Mapping, NamedTuple, Optional, Pattern, Sequence, Type, Union

from .shm import clean_shared_memory

#: What a child's stdin is: a file, a file descriptor, or subprocess.DEVNULL / PIPE.
Stdin = Union[None, int, IO[str]]

# A test runner started as a background job of a non-interactive shell (`cmd &` in a script)
# inherits SIGINT ignored, and an ignored signal stays ignored across exec: every process
# started here would then ignore the SIGINT that stop() sends first, unlike the same program
# started from a terminal. Handled in this process (as Python does by default), SIGINT is back
# to the default disposition in the children.
if signal.getsignal(signal.SIGINT) is signal.SIG_IGN:
    try:
        signal.signal(signal.SIGINT, signal.default_int_handler)
    except ValueError:      # imported first outside the main thread: leave it
        pass

Stopped = NamedTuple('Stopped', [('returncode', Optional[int]), ('output', Optional[str]),
                                 ('signal', Optional[int])])
Stopped.__doc__ = """How a process ended: exit code, whole output, last signal sent (None
when it had exited on its own). `signal` is SIGKILL when it had to be killed."""


def executable(package: str, name: str) -> str:
    """Path of an installed executable, `<prefix>/lib/<package>/<name>` (what `ros2 run` runs)."""
    from ament_index_python.packages import get_package_prefix
    return os.path.join(get_package_prefix(package), 'lib', package, name)


class NodeProcess:
    """A started subprocess and the file its stdout and stderr go to."""

    def __init__(self, args: Sequence[str], env: Optional[Mapping[str, str]] = None,
                 cwd: Optional[str] = None, stdin: Stdin = subprocess.DEVNULL,
                 separate_stderr: bool = False) -> None:
        self.args = list(args)
        self._log = tempfile.TemporaryFile(mode='w+', errors='replace')
        self._err = tempfile.TemporaryFile(mode='w+', errors='replace') \
            if separate_stderr else None
        self.popen = subprocess.Popen(self.args, stdout=self._log,
                                      stderr=self._err or subprocess.STDOUT,
                                      stdin=stdin, text=True, env=env, cwd=cwd,
                                      start_new_session=True)
        self.pid = self.popen.pid
        self._stopped: Optional[Stopped] = None
        self._stopped_errors: Optional[str] = None

    def poll(self) -> Optional[int]:
        """Return the exit code, None while it runs."""
        return self.popen.poll()

    @property
    def returncode(self) -> Optional[int]:
        """Return the exit code, None while it runs (or before it was polled)."""
        return self.popen.returncode

    def send_signal(self, sig: int) -> None:
        """Send `sig` unless it has exited."""
        if self.popen.poll() is None:
            self.popen.send_signal(sig)

    def wait(self, timeout: Optional[float] = None) -> int:
        """Wait for the exit; returns the exit code, raises subprocess.TimeoutExpired."""
        return self.popen.wait(timeout)

    def output(self) -> str:
        """Everything written so far to stdout (and stderr, unless kept separate)."""
        if self._stopped is not None:
            return self._stopped.output or ''
        return _read(self._log)

    def errors(self) -> Optional[str]:
        """Everything written so far to stderr when started with separate_stderr."""
        if self._stopped is not None:
            return self._stopped_errors
        return _read(self._err) if self._err is not None else None

    def wait_for_output(self, pattern: Union[str, Pattern[str]], timeout: float,
                        period: float = 0.05) -> Optional['re.Match[str]']:
        """
        Wait until the output matches `pattern` (a plain str, or a compiled regex).

        Returns the `re.Match`, or None when `timeout` s passed or the process exited
        without printing it.
        """
        regex = pattern if isinstance(pattern, re.Pattern) else re.compile(re.escape(pattern))
        deadline = time.monotonic() + timeout
        while True:
            exited = self.poll() is not None    # read before the output: nothing missed
            found = regex.search(self.output())
            if found or exited or time.monotonic() > deadline:
                return found
            time.sleep(period)

    def stop(self, timeout: float = 10.0, first: int = signal.SIGINT) -> Stopped:
        """See `stop`."""
        return stop(self, timeout, first)

    def __enter__(self) -> 'NodeProcess':
        return self

    def __exit__(self, exc_type: Optional[Type[BaseException]],
                 exc: Optional[BaseException], tb: Optional[TracebackType]) -> None:
        self.stop()


def _read(f: IO[str]) -> str:
    f.flush()
    with open(f.fileno(), closefd=False, errors='replace') as view:
        view.seek(0)
        return view.read()


def start(args: Sequence[str], env: Optional[Mapping[str, str]] = None,
          cwd: Optional[str] = None, stdin: Stdin = subprocess.DEVNULL,
          separate_stderr: bool = False) -> NodeProcess:
    """
    Start `args` (a list: the executable and its arguments) as a NodeProcess.

    stdout and stderr go to one file, or with `separate_stderr` to two (`errors()` reads the
    second), for tests of what a command prints where.
    """
    return NodeProcess(args, env=env, cwd=cwd, stdin=stdin, separate_stderr=separate_stderr)


def stop(proc: Union[NodeProcess, 'subprocess.Popen[str]'], timeout: float = 10.0,
         first: int = signal.SIGINT) -> Stopped:
    """
    Stop `proc` as a user would, and make sure it is gone; return `Stopped`.

    `first` (SIGINT, as Ctrl-C, or SIGTERM) and `timeout` s to exit; then SIGTERM and
    `timeout` s more; then SIGKILL, after which the Fast DDS shared memory the process could
    not release is cleaned. Calling it again returns the same result. A test asserts
    `returncode == 0 and signal == first` for "exits cleanly on the first signal".
    `proc` is a NodeProcess or a plain subprocess.Popen (whose output is not ours: None).
    """
    node: Optional[NodeProcess] = None
    if isinstance(proc, NodeProcess):
        node, popen = proc, proc.popen
        if node._stopped is not None:
            return node._stopped
    else:
        popen = proc
    last: Optional[int] = None
    if popen.poll() is None:
        for sig in dict.fromkeys((first, signal.SIGTERM)):
            last = sig
            popen.send_signal(sig)
            try:
                popen.wait(timeout)
                break
            except subprocess.TimeoutExpired:
                continue
        if popen.poll() is None:
            last = signal.SIGKILL
            popen.kill()
            popen.wait()
            clean_shared_memory()
    result = Stopped(popen.returncode, None, last)
    if node is not None:
        result = result._replace(output=node.output())
        node._stopped_errors = node.errors()
        node._log.close()
        if node._err is not None:
            node._err.close()
        node._stopped = result
    return result
