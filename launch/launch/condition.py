# SPDX-License-Identifier: Apache-2.0
"""The Condition class: decides whether an action is executed."""

from typing import Callable, Optional, Text, TYPE_CHECKING

if TYPE_CHECKING:
    from .launch_context import LaunchContext


class Condition:
    """A predicate of the launch context, evaluated when an action is visited."""

    def __init__(self, *, predicate: Optional[Callable[..., bool]] = None) -> None:
        """Create a Condition; ``predicate(context)`` returns the result."""
        self._predicate = predicate

    def describe(self) -> Text:
        """Return a description of this Condition."""
        return self.__repr__()

    def evaluate(self, context: 'LaunchContext') -> bool:
        """Evaluate the condition in the given context."""
        if self._predicate is not None:
            return self._predicate(context)
        return False
