# SPDX-License-Identifier: Apache-2.0
"""The one exception type verbs raise for a one-line error."""


class CommandError(Exception):
    """A user-facing error: printed as one line on stderr, exit code ``code``."""

    def __init__(self, message: str, code: int = 1) -> None:
        super().__init__(message)
        self.code = code
