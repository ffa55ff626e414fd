# SPDX-License-Identifier: Apache-2.0
"""post_shutdown_test: mark a TestCase to run after the launch has shut down."""


def post_shutdown_test():
    """Return a class decorator marking a unittest.TestCase as a post-shutdown test."""
    def decorator(cls):
        cls.__post_shutdown_test__ = True
        return cls
    return decorator
