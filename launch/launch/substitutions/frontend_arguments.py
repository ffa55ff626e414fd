# SPDX-License-Identifier: Apache-2.0
"""The arguments of a substitution in a frontend file, mapped to its keyword arguments."""

from typing import Any, Dict, Sequence


def positional_arguments(cls: type, data: Sequence[Any], names: Sequence[str],
                         required: int) -> Dict[str, Any]:
    """
    Return ``{name: argument}`` for ``$(<substitution> <arguments>...)``, in order.

    ``names`` are the keyword arguments the arguments stand for; the first ``required`` must
    be given, the rest may. Another number of arguments is a TypeError naming ``cls``.
    """
    if not required <= len(data) <= len(names):
        count = f'{required}' if required == len(names) else f'{required} to {len(names)}'
        raise TypeError(f'{cls.__name__} takes {count} argument(s), got {len(data)}')
    return dict(zip(names, data))
