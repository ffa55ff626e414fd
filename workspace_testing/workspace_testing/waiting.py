# SPDX-License-Identifier: Apache-2.0
"""Polling with a timeout: every wait of a test is bounded."""

import time
from typing import Callable, TypeVar

T = TypeVar('T')


def wait_for(predicate: Callable[[], T], timeout: float, period: float = 0.05) -> T:
    """
    Poll `predicate` until it returns a truthy value or `timeout` s pass.

    Returns the last value `predicate` returned (falsy on timeout), so a test can assert on
    it and show it.
    """
    deadline = time.monotonic() + timeout
    while True:
        value = predicate()
        if value or time.monotonic() > deadline:
            return value
        time.sleep(period)
