# SPDX-License-Identifier: Apache-2.0
"""assertExitCodes and the exit codes (PYTEST_DONT_REWRITE)."""

from typing import Iterable, TYPE_CHECKING

from launch.events.process import ProcessExited

from ..util import CmdArgs, ProcessSpec, resolveProcesses

if TYPE_CHECKING:
    from ..proc_info_handler import ProcInfoHandler

EXIT_OK = 0
EXIT_SIGINT = 130
EXIT_SIGQUIT = 131
EXIT_SIGKILL = 137
EXIT_SIGSEGV = 139
EXIT_FORCED = 1


def assertExitCodes(proc_info: 'ProcInfoHandler',  # noqa: N802
                    allowable_exit_codes: Iterable[int] = (EXIT_OK,),
                    process: ProcessSpec = None, cmd_args: CmdArgs = None, *,
                    strict_proc_matching: bool = True) -> None:
    """Assert that the processes (all, or the one given) exited with an allowed code."""
    allowed = list(allowable_exit_codes)
    for action in resolveProcesses(proc_info, process=process, cmd_args=cmd_args,
                                   strict_proc_matching=strict_proc_matching):
        event = proc_info[action]
        name = action.process_details['name'] if action.process_details else repr(action)
        assert isinstance(event, ProcessExited), f'Proc {name} is still running'
        assert event.returncode in allowed, \
            f'Proc {name} exited with code {event.returncode}'
