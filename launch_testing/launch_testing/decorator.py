# SPDX-License-Identifier: Apache-2.0
"""post_shutdown_test: mark a TestCase to run after the launch has shut down."""

from typing import Callable, TypeVar

_C = TypeVar('_C', bound=type)


def post_shutdown_test() -> Callable[[_C], _C]:
    """Return a class decorator marking a unittest.TestCase as a post-shutdown test."""
    def decorator(cls: _C) -> _C:
        setattr(cls, '__post_shutdown_test__', True)
        return cls
    return decorator
