# SPDX-License-Identifier: Apache-2.0
"""ensure_argument_type: a TypeError naming the argument and the caller."""

import inspect
from typing import Any, Iterable, Optional, Text, Union


def ensure_argument_type(argument: Any, types: Union[type, Iterable[type]],
                         argument_name: Text, caller: Optional[Text] = None) -> None:
    """Raise TypeError unless ``argument`` is an instance of (one of) ``types``."""
    if not isinstance(argument_name, str):
        raise TypeError("argument 'argument_name' must be of type 'str'")
    if caller is not None and not isinstance(caller, str):
        raise TypeError("argument 'caller' must be of type 'str'")
    type_list = [types] if inspect.isclass(types) else list(types)   # type: ignore
    for t in type_list:
        if not inspect.isclass(t):
            raise TypeError(f"argument 'types' must be a type or a list of types, got '{t}'")
    if any(isinstance(argument, t) for t in type_list):
        return
    names = ', '.join(f"'{t.__name__}'" for t in type_list)
    where = f'{caller}: ' if caller else ''
    raise TypeError(f"{where}Expected '{argument_name}' to be one of [{names}], but got "
                    f"'{argument}' of type '{type(argument)}'")
