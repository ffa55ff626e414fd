# SPDX-License-Identifier: Apache-2.0
"""ready_to_test_action_timeout: how long to wait for ReadyToTest (default 15 s)."""

from typing import Any, Callable, TypeVar

DEFAULT_TIMEOUT = 15.0

_F = TypeVar('_F', bound=Callable[..., Any])


def ready_to_test_action_timeout(timeout: float) -> Callable[[_F], _F]:
    """Return a decorator of generate_test_description setting the ReadyToTest timeout."""
    def decorator(function: _F) -> _F:
        setattr(function, '__ready_to_test_action_timeout__', float(timeout))
        return function
    return decorator
