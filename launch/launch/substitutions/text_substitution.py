# SPDX-License-Identifier: Apache-2.0
"""TextSubstitution: plain text."""

from typing import Text, TYPE_CHECKING

from ..substitution import Substitution

if TYPE_CHECKING:
    from ..launch_context import LaunchContext


class TextSubstitution(Substitution):
    """Substitutes its text unchanged."""

    def __init__(self, *, text: Text) -> None:
        """Create the substitution."""
        super().__init__()
        if not isinstance(text, str):
            raise TypeError(
                f"TextSubstitution expected Text object got '{type(text).__name__}' instead.")
        self.__text = text

    @property
    def text(self) -> Text:
        """Getter for text."""
        return self.__text

    def describe(self) -> Text:
        """Return a description of this substitution as a string."""
        return f"'{self.__text}'"

    def perform(self, context: 'LaunchContext') -> Text:
        """Return the text."""
        return self.__text
