# SPDX-License-Identifier: Apache-2.0
"""PyTest: run pytest on a test file as a Test."""

import sys
from typing import Any

from launch.some_substitutions_type import SomeSubstitutionsType

from .test import Test


class PyTest(Test):
    """Runs ``python -m pytest <path>``; ``timeout`` and the rest as Test."""

    __test__ = False    # not a test class for pytest

    def __init__(self, *, path: SomeSubstitutionsType, **kwargs: Any) -> None:
        """Create the action."""
        super().__init__(cmd=[sys.executable, '-m', 'pytest', path], **kwargs)
        self.__path = path

    @property
    def path(self) -> SomeSubstitutionsType:
        """Getter for path."""
        return self.__path
