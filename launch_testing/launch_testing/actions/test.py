# SPDX-License-Identifier: Apache-2.0
"""Test: a process that is a test, stopped when it runs longer than its timeout."""

from typing import Any, List, Optional, Union

from launch.actions import ExecuteProcess, OpaqueFunction, TimerAction
from launch.event_handlers import OnProcessExit
from launch.launch_description_entity import LaunchDescriptionEntity
from launch.some_substitutions_type import SomeSubstitutionsType


class Test(ExecuteProcess):
    """
    An ExecuteProcess that is a test: after ``timeout`` seconds it is shut down.

    The shutdown is launch's (SIGINT, then SIGTERM and SIGKILL after the process's
    ``sigterm_timeout`` / ``sigkill_timeout``). ``timeout`` None or 0: no limit.
    ``kill_timeout`` is kept for upstream's signature. Every other argument is
    ExecuteProcess's.
    """

    __test__ = False    # not a test class for pytest

    def __init__(self, *, timeout: Optional[Union[float, SomeSubstitutionsType]] = None,
                 kill_timeout: Union[float, SomeSubstitutionsType] = 5.0,
                 **kwargs: Any) -> None:
        """Create the action."""
        super().__init__(**kwargs)
        self.__timeout = timeout
        self.__kill_timeout = kill_timeout
        self.__timer: Optional[TimerAction] = None

    @property
    def timeout(self) -> Optional[Union[float, SomeSubstitutionsType]]:
        """Getter for timeout."""
        return self.__timeout

    @property
    def kill_timeout(self) -> Union[float, SomeSubstitutionsType]:
        """Getter for kill_timeout."""
        return self.__kill_timeout

    def __on_exit(self, event: Any, context: Any) -> None:
        if self.__timer is not None:
            self.__timer.cancel()
        return None

    def execute(self, context: Any) -> Optional[List[LaunchDescriptionEntity]]:
        """Start the process, and the timer of its timeout."""
        actions = super().execute(context)
        if not self.__timeout:
            return actions
        self.__timer = TimerAction(period=self.__timeout, actions=[OpaqueFunction(
            function=lambda ctx: self._shutdown_process(ctx, send_sigint=True))])
        context.register_event_handler(OnProcessExit(target_action=self,
                                                     on_exit=self.__on_exit))
        return [*(actions or []), self.__timer]
