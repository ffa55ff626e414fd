# SPDX-License-Identifier: Apache-2.0
"""The types accepted wherever substitutions are: text, a Substitution or a list of them."""

from typing import Iterable, Text, Union

from .substitution import Substitution

SomeSubstitutionsType = Union[
    Text,
    Substitution,
    Iterable[Union[Text, Substitution]],
]

SomeSubstitutionsType_types_tuple = (
    str,
    Substitution,
    Iterable,
)
