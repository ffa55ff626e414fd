# SPDX-License-Identifier: Apache-2.0
"""PythonExpression: the str() of a Python expression evaluated at launch time."""

import importlib
from typing import Any, Dict, List, Sequence, Text, Tuple, Type, TYPE_CHECKING

from .frontend_arguments import positional_arguments
from ..frontend.expose import expose_substitution
from ..some_substitutions_type import SomeSubstitutionsType
from ..substitution import Substitution

if TYPE_CHECKING:
    from ..launch_context import LaunchContext


@expose_substitution('eval')
class PythonExpression(Substitution):
    """
    Evaluates a Python expression (after substitution) and substitutes str() of the result.

    ``python_modules`` (default ['math']) are importable names in the expression; the
    contents of ``math`` are available unqualified as well when it is among them.
    """

    def __init__(self, expression: SomeSubstitutionsType,
                 python_modules: SomeSubstitutionsType = ['math']) -> None:
        """Create the substitution."""
        from ..utilities.normalize_to_list_of_substitutions_impl import (
            normalize_to_list_of_substitutions)
        super().__init__()
        self.__expression = normalize_to_list_of_substitutions(expression)
        modules = [python_modules] if isinstance(python_modules, (str, Substitution)) \
            else list(python_modules)
        self.__python_modules = [normalize_to_list_of_substitutions(m) for m in modules]

    @classmethod
    def parse(
        cls, data: Sequence[List[Substitution]]
    ) -> Tuple[Type['Substitution'], Dict[str, Any]]:
        """Parse ``$(eval <expression> [<comma-separated modules>])``."""
        kwargs = positional_arguments(cls, data, ('expression', 'python_modules'), required=1)
        if len(data) == 2:
            from .text_substitution import TextSubstitution
            if not all(isinstance(s, TextSubstitution) for s in data[1]):
                raise TypeError('the modules of $(eval) must be plain text')
            modules = ''.join(s.text for s in data[1] if isinstance(s, TextSubstitution))
            kwargs['python_modules'] = [m.strip() for m in modules.split(',') if m.strip()]
        return cls, kwargs

    @property
    def expression(self) -> List[Substitution]:
        """Getter for expression."""
        return self.__expression

    @property
    def python_modules(self) -> List[List[Substitution]]:
        """Getter for python_modules."""
        return self.__python_modules

    def describe(self) -> Text:
        """Return a description of this substitution as a string."""
        expression = ' + '.join(s.describe() for s in self.__expression)
        modules = ', '.join(' + '.join(s.describe() for s in m) for m in self.__python_modules)
        return f'PythonExpr({expression}, [{modules}])'

    def perform(self, context: 'LaunchContext') -> Text:
        """Evaluate the expression and return str() of its value."""
        from ..utilities.perform_substitutions_impl import perform_substitutions
        namespace: Dict[str, Any] = {}
        for module_subs in self.__python_modules:
            name = perform_substitutions(context, module_subs)
            module = importlib.import_module(name)
            if name == 'math':
                namespace.update(
                    {k: v for k, v in vars(module).items() if not k.startswith('_')})
            namespace[name] = module
        return str(eval(perform_substitutions(context, self.__expression), namespace))
