# SPDX-License-Identifier: Apache-2.0
"""OnProcessIO: handle the output (and input) events of processes."""

from typing import Any, Callable, Optional, TYPE_CHECKING, Union

from .on_action_event_base import OnActionEventBase
from ..event import Event
from ..events.process import ProcessIO
from ..some_entities_type import SomeEntitiesType

if TYPE_CHECKING:
    from ..actions.execute_local import ExecuteLocal
    from ..launch_context import LaunchContext

IOCallback = Callable[[ProcessIO], Optional[SomeEntitiesType]]


class OnProcessIO(OnActionEventBase):
    """
    Calls ``on_stdout`` / ``on_stderr`` / ``on_stdin`` (each ``f(event)``) for the I/O events.

    Of ``target_action`` only, or of any process when it is None.
    """

    def __init__(self, *,
                 target_action: Optional[Union[Callable[['ExecuteLocal'], bool],
                                               'ExecuteLocal']] = None,
                 on_stdin: Optional[IOCallback] = None,
                 on_stdout: Optional[IOCallback] = None,
                 on_stderr: Optional[IOCallback] = None, **kwargs: Any) -> None:
        """Create the handler."""
        from ..actions.execute_local import ExecuteLocal
        self.__on_stdin = on_stdin
        self.__on_stdout = on_stdout
        self.__on_stderr = on_stderr
        super().__init__(action_matcher=target_action, on_event=self.__dispatch,
                         target_event_cls=ProcessIO, target_action_cls=ExecuteLocal,
                         **kwargs)

    def __dispatch(self, event: Event, context: 'LaunchContext') -> Optional[SomeEntitiesType]:
        assert isinstance(event, ProcessIO)
        if event.from_stdout and self.__on_stdout is not None:
            return self.__on_stdout(event)
        if event.from_stderr and self.__on_stderr is not None:
            return self.__on_stderr(event)
        if event.from_stdin and self.__on_stdin is not None:
            return self.__on_stdin(event)
        return None
