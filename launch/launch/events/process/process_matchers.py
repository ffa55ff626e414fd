# SPDX-License-Identifier: Apache-2.0
"""Matchers of process actions: by pid, by name, by executable."""

from typing import Callable, Text


def matches_pid(pid: int) -> Callable[[object], bool]:
    """Return a matcher of the action whose running process has ``pid``."""
    return lambda action: getattr(action, 'process_details', None) is not None \
        and getattr(action, 'process_details').get('pid') == pid


def matches_name(name: Text) -> Callable[[object], bool]:
    """Return a matcher of the action whose process is named ``name`` (``name-N``)."""
    return lambda action: getattr(action, 'process_details', None) is not None \
        and getattr(action, 'process_details').get('name') == name


def matches_executable(executable: object) -> Callable[[object], bool]:
    """Return a matcher of exactly the action ``executable``."""
    return lambda action: action is executable
