# SPDX-License-Identifier: Apache-2.0
"""FileContent: the text of a file, read at launch time."""

from typing import Any, Dict, List, Sequence, Text, Tuple, Type

from .frontend_arguments import positional_arguments
from .substitution_failure import SubstitutionFailure
from ..frontend.expose import expose_substitution
from ..some_substitutions_type import SomeSubstitutionsType
from ..substitution import Substitution


@expose_substitution('file-content')
class FileContent(Substitution):
    """Substitutes the content of the file ``path``; SubstitutionFailure if it is missing."""

    def __init__(self, path: SomeSubstitutionsType) -> None:
        """Create the substitution."""
        from ..utilities.normalize_to_list_of_substitutions_impl import (
            normalize_to_list_of_substitutions)
        super().__init__()
        self.__path = normalize_to_list_of_substitutions(path)

    @classmethod
    def parse(cls, data: Sequence[Any]) -> Tuple[Type['FileContent'], Dict[str, Any]]:
        """Parse ``$(file-content <path>)``."""
        return cls, positional_arguments(cls, data, ('path',), required=1)

    @property
    def path(self) -> List[Substitution]:
        """Return the substitutions of the path."""
        return self.__path

    def describe(self) -> Text:
        """Return a description of the substitution."""
        return 'FileContent({})'.format(' + '.join(s.describe() for s in self.__path))

    def perform(self, context: Any) -> Text:
        """Read the file."""
        from ..utilities.perform_substitutions_impl import perform_substitutions
        path = perform_substitutions(context, self.__path)
        try:
            with open(path, encoding='utf-8') as f:
                return f.read()
        except FileNotFoundError:
            raise SubstitutionFailure(f'File not found: {path}') from None
        except (OSError, UnicodeDecodeError) as e:
            raise SubstitutionFailure(f"cannot read file '{path}': {e}") from None
