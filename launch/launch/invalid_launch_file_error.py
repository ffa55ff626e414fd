# SPDX-License-Identifier: Apache-2.0
"""The InvalidLaunchFileError class: a launch file none of the loaders could load."""

from typing import List, Optional


class InvalidLaunchFileError(Exception):
    """Raised when no loader could load a launch file; lists what each loader raised."""

    def __init__(self, extension: str = '', *,
                 likely_errors: Optional[List[Exception]] = None) -> None:
        """Create the error for a file with ``extension`` and the loaders' exceptions."""
        self._extension = extension
        self._likely_errors = likely_errors
        if not extension or not likely_errors:
            self._error_message = (
                'The launch file may have a syntax error, or its format is unknown')
        else:
            self._error_message = 'Caught {} when trying to load file of format [{}]:'.format(
                'multiple exceptions' if len(likely_errors) > 1 else 'exception', extension)
            for error in likely_errors:
                self._error_message += f'\n - {type(error).__name__}: {error}'
            self.__cause__ = likely_errors[0]
        super().__init__(self._error_message)

    def __str__(self) -> str:
        """Return the message."""
        return self._error_message
