# SPDX-License-Identifier: Apache-2.0
"""LocalSubstitution: a value of the context's locals."""

from typing import Optional, Text, TYPE_CHECKING

from .substitution_failure import SubstitutionFailure
from ..substitution import Substitution

if TYPE_CHECKING:
    from ..launch_context import LaunchContext


class LocalSubstitution(Substitution):
    """
    Substitutes ``context.locals.<expression>``, as text.

    ``expression`` is e.g. ``event.pid`` or ``ros_specific_arguments['name']``.
    """

    def __init__(self, expression: Text, description: Optional[Text] = None) -> None:
        """Create the substitution."""
        super().__init__()
        if not isinstance(expression, str):
            raise TypeError("LocalSubstitution: 'expression' must be a str")
        self.__expression = expression
        self.__description = description

    @property
    def expression(self) -> Text:
        """Getter for expression."""
        return self.__expression

    @property
    def description(self) -> Optional[Text]:
        """Getter for description."""
        return self.__description

    def describe(self) -> Text:
        """Return a description of this substitution as a string."""
        if self.__description is not None:
            return self.__description
        return f"LocalVar('{self.__expression}')"

    def perform(self, context: 'LaunchContext') -> Text:
        """Return the local's value as text."""
        try:
            value = eval('locals_.' + self.__expression, {}, {'locals_': context.locals})
        except (AttributeError, KeyError, IndexError) as e:
            raise SubstitutionFailure(
                f"local '{self.__expression}' is not available: {e}") from None
        return str(value)
