# SPDX-License-Identifier: Apache-2.0
"""Markers of generate_test_description and of test methods."""

import functools
from typing import Any, Callable, cast, TypeVar

_F = TypeVar('_F', bound=Callable[..., Any])


def keep_alive(test_description_function: _F) -> _F:
    """Keep the launch running while the tests run, even after every process exited."""
    setattr(test_description_function, '__markers__', getattr(
        test_description_function, '__markers__', set()) | {'keep_alive'})
    return test_description_function


def retry_on_failure(*, times: int) -> Callable[[_F], _F]:
    """Run a failing test method again, up to ``times`` runs in all."""
    if times < 1:
        raise ValueError('times must be at least 1')

    def decorator(function: _F) -> _F:
        @functools.wraps(function)
        def wrapper(*args: Any, **kwargs: Any) -> Any:
            for attempt in range(times):
                try:
                    return function(*args, **kwargs)
                except AssertionError:
                    if attempt == times - 1:
                        raise
        return cast(_F, wrapper)
    return decorator
