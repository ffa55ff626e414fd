# SPDX-License-Identifier: Apache-2.0
"""parametrize: run a launch test once per set of parameter values."""

from typing import Any, Callable, Dict, Iterable, List, Sequence, TypeVar, Union

_F = TypeVar('_F', bound=Callable[..., Any])


def parametrize(argnames: Union[str, Sequence[str]],
                argvalues: Iterable[Any]) -> Callable[[_F], _F]:
    """
    Decorate generate_test_description: one run per value (pytest.mark.parametrize's style).

    ``argnames``: 'a' or 'a, b'; the values are given to generate_test_description and to
    the test methods that ask for them by name.
    """
    names = [n.strip() for n in argnames.split(',')] if isinstance(argnames, str) \
        else list(argnames)
    runs: List[Dict[str, Any]] = []
    for value in argvalues:
        values = value if len(names) > 1 else (value,)
        if len(values) != len(names):
            raise ValueError(f'parametrize: {len(names)} names but values {value!r}')
        runs.append(dict(zip(names, values)))

    def decorator(function: _F) -> _F:
        setattr(function, '__parametrize__', runs)
        return function
    return decorator
