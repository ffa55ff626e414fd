# SPDX-License-Identifier: Apache-2.0
"""NotSubstitution, AndSubstitution, OrSubstitution, AnySubstitution, AllSubstitution."""

from typing import Any, Dict, List, Sequence, Text, Tuple, Type, TYPE_CHECKING

from .substitution_failure import SubstitutionFailure
from ..frontend.expose import expose_substitution
from ..some_substitutions_type import SomeSubstitutionsType
from ..substitution import Substitution

if TYPE_CHECKING:
    from ..launch_context import LaunchContext


def _as_bool(context: 'LaunchContext', value: List[Substitution], what: Text) -> bool:
    from ..conditions.evaluate_condition_expression_impl import evaluate_condition_expression
    from ..conditions.invalid_condition_expression_error import InvalidConditionExpressionError
    try:
        return evaluate_condition_expression(context, value)
    except InvalidConditionExpressionError as e:
        raise SubstitutionFailure(f'{what}: {e}') from None


def _text(value: bool) -> Text:
    return 'true' if value else 'false'


def _describe(subs: List[Substitution]) -> Text:
    return ' + '.join(s.describe() for s in subs)


@expose_substitution('not')
class NotSubstitution(Substitution):
    """Substitutes 'true' if ``value`` is false (false/0), 'false' if it is true (true/1)."""

    def __init__(self, value: SomeSubstitutionsType) -> None:
        """Create the substitution."""
        from ..utilities.normalize_to_list_of_substitutions_impl import (
            normalize_to_list_of_substitutions)
        super().__init__()
        self.__value = normalize_to_list_of_substitutions(value)

    @classmethod
    def parse(
        cls, data: Sequence[SomeSubstitutionsType]
    ) -> Tuple[Type['Substitution'], Dict[str, Any]]:
        """Parse the arguments of the substitution in a frontend file."""
        if len(data) != 1:
            raise TypeError(f'not takes 1 argument, got {len(data)}')
        return cls, {'value': data[0]}

    @property
    def value(self) -> List[Substitution]:
        """Getter for value."""
        return self.__value

    def describe(self) -> Text:
        """Return a description of this substitution as a string."""
        return f'NotSubstitution({_describe(self.__value)})'

    def perform(self, context: 'LaunchContext') -> Text:
        """Return the negation."""
        return _text(not _as_bool(context, self.__value, 'NotSubstitution'))


class _Binary(Substitution):
    _name = ''

    def __init__(self, left: SomeSubstitutionsType, right: SomeSubstitutionsType) -> None:
        from ..utilities.normalize_to_list_of_substitutions_impl import (
            normalize_to_list_of_substitutions)
        super().__init__()
        self.__left = normalize_to_list_of_substitutions(left)
        self.__right = normalize_to_list_of_substitutions(right)

    @classmethod
    def parse(
        cls, data: Sequence[SomeSubstitutionsType]
    ) -> Tuple[Type['Substitution'], Dict[str, Any]]:
        """Parse the arguments of the substitution in a frontend file."""
        if len(data) != 2:
            raise TypeError(f'{cls._name} takes 2 arguments, got {len(data)}')
        return cls, {'left': data[0], 'right': data[1]}

    @property
    def left(self) -> List[Substitution]:
        """Getter for left."""
        return self.__left

    @property
    def right(self) -> List[Substitution]:
        """Getter for right."""
        return self.__right

    def describe(self) -> Text:
        """Return a description of this substitution as a string."""
        return f'{self._name}({_describe(self.__left)} {_describe(self.__right)})'

    def _values(self, context: 'LaunchContext') -> Tuple[bool, bool]:
        return (_as_bool(context, self.__left, f'{self._name} left'),
                _as_bool(context, self.__right, f'{self._name} right'))


@expose_substitution('and')
class AndSubstitution(_Binary):
    """Substitutes 'true' if both ``left`` and ``right`` are true."""

    _name = 'AndSubstitution'

    def perform(self, context: 'LaunchContext') -> Text:
        """Return the conjunction."""
        left, right = self._values(context)
        return _text(left and right)


@expose_substitution('or')
class OrSubstitution(_Binary):
    """Substitutes 'true' if ``left`` or ``right`` is true."""

    _name = 'OrSubstitution'

    def perform(self, context: 'LaunchContext') -> Text:
        """Return the disjunction."""
        left, right = self._values(context)
        return _text(left or right)


class _Many(Substitution):
    _name = ''

    def __init__(self, *args: SomeSubstitutionsType, **kwargs: Any) -> None:
        from ..utilities.normalize_to_list_of_substitutions_impl import (
            normalize_to_list_of_substitutions)
        super().__init__()
        args = tuple(kwargs.pop('args', ())) + args
        self.__args = [normalize_to_list_of_substitutions(a) for a in args]

    @classmethod
    def parse(
        cls, data: Sequence[SomeSubstitutionsType]
    ) -> Tuple[Type['Substitution'], Dict[str, Any]]:
        """Parse the arguments of the substitution in a frontend file."""
        return cls, {'args': data}

    @property
    def args(self) -> List[List[Substitution]]:
        """Getter for args."""
        return self.__args

    def describe(self) -> Text:
        """Return a description of this substitution as a string."""
        return f"{self._name}({' '.join(_describe(a) for a in self.__args)})"

    def _values(self, context: 'LaunchContext') -> List[bool]:
        return [_as_bool(context, a, self._name) for a in self.__args]


@expose_substitution('any')
class AnySubstitution(_Many):
    """Substitutes 'true' if any argument is true ('false' with none)."""

    _name = 'AnySubstitution'

    def perform(self, context: 'LaunchContext') -> Text:
        """Return whether any is true."""
        return _text(any(self._values(context)))


@expose_substitution('all')
class AllSubstitution(_Many):
    """Substitutes 'true' if every argument is true ('true' with none)."""

    _name = 'AllSubstitution'

    def perform(self, context: 'LaunchContext') -> Text:
        """Return whether all are true."""
        return _text(all(self._values(context)))
