# SPDX-License-Identifier: Apache-2.0
"""EqualsSubstitution: 'true' if two values are equal, compared as bools, numbers or text."""

import math
from typing import Any, Dict, List, Optional, Sequence, Text, Tuple, Type, TYPE_CHECKING

from .frontend_arguments import positional_arguments
from ..frontend.expose import expose_substitution
from ..substitution import Substitution

if TYPE_CHECKING:
    from ..launch_context import LaunchContext
    from ..some_substitutions_type import SomeSubstitutionsType

_BOOL_TEXT = {'true': True, '1': True, 'false': False, '0': False}


def _normalize(value: Any) -> List['Substitution']:
    from ..utilities.normalize_to_list_of_substitutions_impl import (
        normalize_to_list_of_substitutions)
    if value is None:
        return []
    if isinstance(value, bool):
        return normalize_to_list_of_substitutions('true' if value else 'false')
    if isinstance(value, (int, float)):
        return normalize_to_list_of_substitutions(repr(float(value)) if isinstance(
            value, float) else str(value))
    return normalize_to_list_of_substitutions(value)


def _as_bool(text: Text) -> Optional[bool]:
    return _BOOL_TEXT.get(text.strip().lower())


def _as_float(text: Text) -> Optional[float]:
    try:
        return float(text)
    except ValueError:
        return None


def values_equal(left: Text, right: Text) -> bool:
    """Compare two texts: as bools if both are, else as numbers if both are, else as text."""
    left_bool, right_bool = _as_bool(left), _as_bool(right)
    if left_bool is not None and right_bool is not None:
        return left_bool == right_bool
    left_num, right_num = _as_float(left), _as_float(right)
    if left_num is not None and right_num is not None:
        if math.isnan(left_num) or math.isnan(right_num):
            return False
        return math.isclose(left_num, right_num)
    return left == right


@expose_substitution('equals')
class EqualsSubstitution(Substitution):
    """
    Substitutes 'true' if ``left`` equals ``right``, else 'false'.

    Either may be None (equal to ''), a bool, a number, text or substitutions. Two
    values that both read as bools (true/false/1/0) compare as bools, two numbers as
    numbers (nan equals nothing), anything else as text.
    """

    def __init__(self, left: Any, right: Any) -> None:
        """Create the substitution."""
        super().__init__()
        self.__left = _normalize(left)
        self.__right = _normalize(right)

    @classmethod
    def parse(
        cls, data: Sequence['SomeSubstitutionsType']
    ) -> Tuple[Type['Substitution'], Dict[str, Any]]:
        """Parse the arguments of the substitution in a frontend file."""
        return cls, positional_arguments(cls, data, ('left', 'right'), required=2)

    @property
    def left(self) -> List['Substitution']:
        """Getter for left."""
        return self.__left

    @property
    def right(self) -> List['Substitution']:
        """Getter for right."""
        return self.__right

    def describe(self) -> Text:
        """Return a description of this substitution as a string."""
        left = ' + '.join(s.describe() for s in self.__left)
        right = ' + '.join(s.describe() for s in self.__right)
        return f'EqualsSubstitution({left} {right})'

    def perform(self, context: 'LaunchContext') -> Text:
        """Return 'true' or 'false'."""
        from ..utilities.perform_substitutions_impl import perform_substitutions
        equal = values_equal(perform_substitutions(context, self.__left),
                             perform_substitutions(context, self.__right))
        return 'true' if equal else 'false'
