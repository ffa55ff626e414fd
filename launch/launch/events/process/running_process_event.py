# SPDX-License-Identifier: Apache-2.0
"""RunningProcessEvent: the base of the events of a running process."""

from typing import Dict, List, Optional, Text, TYPE_CHECKING

from ...event import Event

if TYPE_CHECKING:
    from ...actions.execute_local import ExecuteLocal


class RunningProcessEvent(Event):
    """An event of a process: its action, name, cmd, cwd, env and pid."""

    name = 'launch.events.process.RunningProcessEvent'

    def __init__(self, *, action: 'ExecuteLocal', name: Text, cmd: List[Text], cwd: Optional[Text],
                 env: Optional[Dict[Text, Text]], pid: int) -> None:
        """Create the event."""
        super().__init__()
        self.__action = action
        self.__name = name
        self.__cmd = cmd
        self.__cwd = cwd
        self.__env = env
        self.__pid = pid

    @property
    def action(self) -> 'ExecuteLocal':
        """Return the ExecuteLocal action of the process."""
        return self.__action

    @property
    def execute_process_action(self) -> 'ExecuteLocal':
        """Getter for the action (upstream's older name)."""
        return self.__action

    @property
    def process_name(self) -> Text:
        """Getter for the process's name (``name-N``)."""
        return self.__name

    @property
    def cmd(self) -> List[Text]:
        """Getter for cmd."""
        return self.__cmd

    @property
    def cwd(self) -> Optional[Text]:
        """Getter for cwd."""
        return self.__cwd

    @property
    def env(self) -> Optional[Dict[Text, Text]]:
        """Getter for env."""
        return self.__env

    @property
    def pid(self) -> int:
        """Getter for pid."""
        return self.__pid
