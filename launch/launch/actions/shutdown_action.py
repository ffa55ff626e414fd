# SPDX-License-Identifier: Apache-2.0
"""Shutdown: shut the launch down when executed."""

from typing import Text

from .emit_event import EmitEvent
from ..action import Action
from ..events import Shutdown as ShutdownEvent
from ..frontend import expose_action


@expose_action('shutdown')
class Shutdown(EmitEvent):
    """Emits the Shutdown event (with ``reason``) when executed."""

    def __init__(self, *, reason: Text = 'reason not given', **kwargs) -> None:
        """Create the action."""
        super().__init__(event=ShutdownEvent(reason=reason), **kwargs)

    @classmethod
    def parse(cls, entity, parser):
        """Parse ``<shutdown reason/>``."""
        _, kwargs = Action.parse(entity, parser)
        reason = entity.get_attr('reason', optional=True)
        if reason is not None:
            kwargs['reason'] = parser.escape_characters(reason)
        return cls, kwargs
