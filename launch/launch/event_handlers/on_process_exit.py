# SPDX-License-Identifier: Apache-2.0
"""OnProcessExit: handle ProcessExited events."""

from typing import Any, Callable, Optional, TYPE_CHECKING, Union

from .on_action_event_base import OnActionEventBase
from ..events.process import ProcessExited
from ..some_entities_type import SomeEntitiesType

if TYPE_CHECKING:
    from ..actions.execute_local import ExecuteLocal


class OnProcessExit(OnActionEventBase):
    """On the exit of ``target_action`` (or of any process), do ``on_exit``."""

    def __init__(self, *,
                 target_action: Optional[Union[Callable[['ExecuteLocal'], bool],
                                               'ExecuteLocal']] = None,
                 on_exit: Union[SomeEntitiesType, Callable[..., Optional[SomeEntitiesType]]],
                 **kwargs: Any) -> None:
        """Create the handler; ``on_exit(event, context)`` when a callable."""
        from ..actions.execute_local import ExecuteLocal
        super().__init__(action_matcher=target_action, on_event=on_exit,
                         target_event_cls=ProcessExited, target_action_cls=ExecuteLocal,
                         **kwargs)
