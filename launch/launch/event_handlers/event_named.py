# SPDX-License-Identifier: Apache-2.0
"""event_named: a matcher of events by name."""

from typing import Callable, Text

from ..event import Event


def event_named(name: Text) -> Callable[[Event], bool]:
    """Return a matcher of events whose ``name`` is ``name``."""
    return lambda event: event.name == name
