# SPDX-License-Identifier: Apache-2.0
"""KeepAliveProc and the process look-up of the handlers and asserts."""

import sys
from typing import Any, Iterable, List, Optional, Protocol, Union

from launch.actions import ExecuteLocal, ExecuteProcess

# a process of the asserts and handlers: None (any), its action, or a part of its name
ProcessSpec = Optional[Union[str, ExecuteLocal]]
# the arguments a process was started with: one, several, or None (any)
CmdArgs = Optional[Union[str, Iterable[str]]]


class ProcessRecord(Protocol):
    """What records processes (proc_info, proc_output): the process actions it saw."""

    def processes(self) -> List[Any]:
        """Return the process actions seen."""
        ...


class NoMatchingProcessException(Exception):
    """No recorded process matches."""


def KeepAliveProc() -> ExecuteProcess:  # noqa: N802 - upstream's name
    """Return a process that runs until launch stops it (keeps a launch alive)."""
    return ExecuteProcess(
        cmd=[sys.executable, '-S', '-c',
             'import signal, sys\n'
             'signal.signal(signal.SIGINT, lambda *_: sys.exit(0))\n'
             'signal.signal(signal.SIGTERM, lambda *_: sys.exit(0))\n'
             'while True:\n    signal.pause()\n'],
        name='keep_alive_proc')


def _matches_args(action: Any, cmd_args: CmdArgs) -> bool:
    if cmd_args is None:
        return True
    cmd = action.process_details['cmd'] if action.process_details else []
    if isinstance(cmd_args, str):
        cmd_args = [cmd_args]
    cmd_args = list(cmd_args)
    if not cmd_args:
        return len(cmd) == 1
    return all(arg in cmd[1:] for arg in cmd_args)


def _describe(action: Any) -> str:
    details = action.process_details
    if not details:
        return repr(action)
    return f"{details['name']} {' '.join(details['cmd'][1:])}".strip()


def resolveProcesses(info_obj: ProcessRecord, *, process: ProcessSpec = None,  # noqa: N802
                     cmd_args: CmdArgs = None,
                     strict_proc_matching: bool = True) -> List[Any]:
    """
    Return the process actions in ``info_obj`` (proc_output / proc_info) that match.

    ``process``: None (all), an ExecuteProcess action, or a name matched as a substring of
    the process name (``name-N``); ``cmd_args`` narrows by arguments. With
    ``strict_proc_matching`` a name matching several processes is an error.
    """
    known = list(info_obj.processes())
    if process is None:
        if not known:
            raise NoMatchingProcessException('No data recorded for any process')
        return known
    if not isinstance(process, str):
        if process not in known:
            raise NoMatchingProcessException(f'No data recorded for proc {_describe(process)}')
        return [process]
    matches = [a for a in known if a.process_details and process in a.process_details['name']
               and _matches_args(a, cmd_args)]
    if not matches:
        raise NoMatchingProcessException(
            f"Did not find any processes matching name '{process}' and args '{cmd_args}'. "
            f"Procs: {', '.join(_describe(a) for a in known)}")
    if strict_proc_matching and len(matches) > 1:
        raise Exception(
            f"Found multiple processes matching name '{process}' and cmd_args '{cmd_args}'. "
            f"Procs: {', '.join(_describe(a) for a in matches)}")
    return matches
