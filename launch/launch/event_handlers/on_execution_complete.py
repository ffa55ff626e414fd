# SPDX-License-Identifier: Apache-2.0
"""OnExecutionComplete: handle ExecutionComplete events."""

from typing import Any, Callable, Optional, TYPE_CHECKING, Union

from .on_action_event_base import OnActionEventBase
from ..events import ExecutionComplete
from ..some_entities_type import SomeEntitiesType

if TYPE_CHECKING:
    from ..action import Action


class OnExecutionComplete(OnActionEventBase):
    """When ``target_action`` (or any action) completes, do ``on_completion``."""

    def __init__(self, *,
                 target_action: Optional[Union[Callable[['Action'], bool], 'Action']] = None,
                 on_completion: Union[SomeEntitiesType,
                                      Callable[..., Optional[SomeEntitiesType]]],
                 **kwargs: Any) -> None:
        """Create the handler; ``on_completion(event, context)`` when a callable."""
        from ..action import Action
        super().__init__(action_matcher=target_action, on_event=on_completion,
                         target_event_cls=ExecutionComplete, target_action_cls=Action,
                         **kwargs)
