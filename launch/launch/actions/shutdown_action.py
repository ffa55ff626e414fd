# SPDX-License-Identifier: Apache-2.0
"""Shutdown: shut the launch down when executed."""

from typing import Any, Dict, Text, Tuple, Type, TYPE_CHECKING

from .emit_event import EmitEvent
from ..action import Action
from ..events import Shutdown as ShutdownEvent
from ..frontend.expose import expose_action

if TYPE_CHECKING:
    from ..frontend.entity import Entity
    from ..frontend.parser import Parser


@expose_action('shutdown')
class Shutdown(EmitEvent):
    """Emits the Shutdown event (with ``reason``) when executed."""

    def __init__(self, *, reason: Text = 'reason not given', **kwargs: Any) -> None:
        """Create the action."""
        super().__init__(event=ShutdownEvent(reason=reason), **kwargs)

    @classmethod
    def parse(cls, entity: 'Entity', parser: 'Parser') -> Tuple[Type['Action'], Dict[str, Any]]:
        """Parse ``<shutdown reason/>``."""
        _, kwargs = Action.parse(entity, parser)
        reason = entity.get_attr('reason', optional=True)
        if reason is not None:
            kwargs['reason'] = parser.escape_characters(reason)
        return cls, kwargs
