# SPDX-License-Identifier: Apache-2.0
"""create_future: a future of the given event loop (None: the current one)."""

import asyncio
from typing import Any, Optional


def create_future(loop: Optional[asyncio.AbstractEventLoop]) -> 'asyncio.Future[Any]':
    """Return a new future of ``loop``."""
    if loop is None:
        loop = asyncio.get_event_loop()
    return loop.create_future()
