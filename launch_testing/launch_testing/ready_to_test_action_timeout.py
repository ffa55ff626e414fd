# SPDX-License-Identifier: Apache-2.0
"""ready_to_test_action_timeout: how long to wait for ReadyToTest (default 15 s)."""

DEFAULT_TIMEOUT = 15.0


def ready_to_test_action_timeout(timeout: float):
    """Return a decorator of generate_test_description setting the ReadyToTest timeout."""
    def decorator(function):
        function.__ready_to_test_action_timeout__ = float(timeout)
        return function
    return decorator
