# SPDX-License-Identifier: Apache-2.0
"""GTest: run a gtest executable as a Test."""

from typing import Any

from launch.some_substitutions_type import SomeSubstitutionsType

from .test import Test


class GTest(Test):
    """Runs the test executable ``path``; ``timeout`` and the rest as Test."""

    __test__ = False    # not a test class for pytest

    def __init__(self, *, path: SomeSubstitutionsType, **kwargs: Any) -> None:
        """Create the action."""
        super().__init__(cmd=[path], **kwargs)
        self.__path = path

    @property
    def path(self) -> SomeSubstitutionsType:
        """Getter for path."""
        return self.__path
