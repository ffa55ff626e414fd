# SPDX-License-Identifier: Apache-2.0
"""The Substitution class: a piece of text computed when launch runs."""

from typing import Text, TYPE_CHECKING

if TYPE_CHECKING:
    from .launch_context import LaunchContext


class Substitution:
    """Text that is only known at launch time (``perform(context)`` returns it)."""

    def __str__(self) -> Text:
        """Return the description of the substitution."""
        return self.describe()

    def describe(self) -> Text:
        """Return a description of this substitution as a string."""
        return self.__repr__()

    def perform(self, context: 'LaunchContext') -> Text:
        """Return the text of the substitution in the given context."""
        raise NotImplementedError(
            f"perform() not implemented for '{self.__class__.__name__}'")
