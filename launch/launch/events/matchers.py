# SPDX-License-Identifier: Apache-2.0
"""Matchers for the actions of events."""

from typing import Callable


def matches_action(target_action: object) -> Callable[[object], bool]:
    """Return a matcher of exactly ``target_action`` (by identity)."""
    return lambda action: action is target_action
