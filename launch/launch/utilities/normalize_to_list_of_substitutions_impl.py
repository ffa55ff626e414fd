# SPDX-License-Identifier: Apache-2.0
"""normalize_to_list_of_substitutions: text, a substitution or a list of them -> a list."""

from typing import Iterable, List, Union

from ..some_substitutions_type import SomeSubstitutionsType
from ..substitution import Substitution


def normalize_to_list_of_substitutions(subs: SomeSubstitutionsType) -> List[Substitution]:
    """
    Return ``subs`` as a list of Substitution.

    A str becomes a TextSubstitution; a Substitution a list of one; an iterable of str and
    Substitution a list of both (str items as TextSubstitution). Anything else: TypeError.
    """
    from ..substitutions.text_substitution import TextSubstitution

    def normalize(x: Union[str, Substitution]) -> Substitution:
        if isinstance(x, Substitution):
            return x
        if isinstance(x, str):
            return TextSubstitution(text=x)
        raise TypeError(
            f"Failed to normalize given item of type '{type(x)}', when only "
            "'str' or 'launch.Substitution' were expected.")

    if isinstance(subs, str):
        return [TextSubstitution(text=subs)]
    if isinstance(subs, Substitution):
        return [subs]
    if isinstance(subs, Iterable):
        return [normalize(y) for y in subs]
    raise TypeError(f"'{subs}' must be a str, a Substitution or an iterable of those")
