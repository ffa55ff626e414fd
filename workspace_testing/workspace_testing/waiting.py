# SPDX-License-Identifier: Apache-2.0
"""Polling with a timeout: every wait of a test is bounded."""

import time


def wait_for(predicate, timeout, period=0.05):
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
