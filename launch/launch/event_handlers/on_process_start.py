# SPDX-License-Identifier: Apache-2.0
"""OnProcessStart: handle ProcessStarted events."""

from typing import Any, Callable, Optional, TYPE_CHECKING, Union

from .on_action_event_base import OnActionEventBase
from ..events.process import ProcessStarted
from ..some_entities_type import SomeEntitiesType

if TYPE_CHECKING:
    from ..actions.execute_local import ExecuteLocal


class OnProcessStart(OnActionEventBase):
    """On the start of ``target_action`` (or of any process), do ``on_start``."""

    def __init__(self, *,
                 target_action: Optional[Union[Callable[['ExecuteLocal'], bool],
                                               'ExecuteLocal']] = None,
                 on_start: Union[SomeEntitiesType, Callable[..., Optional[SomeEntitiesType]]],
                 **kwargs: Any) -> None:
        """Create the handler; ``on_start(event, context)`` when a callable."""
        from ..actions.execute_local import ExecuteLocal
        super().__init__(action_matcher=target_action, on_event=on_start,
                         target_event_cls=ProcessStarted, target_action_cls=ExecuteLocal,
                         **kwargs)
