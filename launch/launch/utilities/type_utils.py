# SPDX-License-Identifier: Apache-2.0
"""Typed values from substitutions (bool, int, float, str)."""

from typing import Any, Optional, TYPE_CHECKING

from .normalize_to_list_of_substitutions_impl import normalize_to_list_of_substitutions
from .perform_substitutions_impl import perform_substitutions
from ..substitution import Substitution

if TYPE_CHECKING:
    from ..launch_context import LaunchContext

# YAML 1.1's words, as upstream's typed substitutions read them
_TRUE = ('true', '1', 'yes', 'on')
_FALSE = ('false', '0', 'no', 'off')


def _coerce(text: str, data_type: Optional[type]) -> Any:
    if data_type is None or data_type is str:
        return text
    if data_type is bool:
        lowered = text.strip().lower()
        if lowered in _TRUE:
            return True
        if lowered in _FALSE:
            return False
        raise ValueError(f"'{text}' is not a valid bool (true, false, 1, 0, yes, no, on, off)")
    if data_type is int:
        return int(text)
    if data_type is float:
        return float(text)
    raise ValueError(f'unsupported data type {data_type}')


def perform_typed_substitution(
    context: 'LaunchContext', value: Any, data_type: Optional[type]
) -> Any:
    """Return ``value`` (a plain value or substitutions) as ``data_type``."""
    if isinstance(value, (Substitution, str)) or (
            isinstance(value, (list, tuple)) and value and all(
                isinstance(v, (Substitution, str)) for v in value)):
        if isinstance(value, str) and data_type is str:
            return value
        text = perform_substitutions(context, normalize_to_list_of_substitutions(value))
        return _coerce(text, data_type)
    if data_type is float and isinstance(value, int) and not isinstance(value, bool):
        return float(value)
    return value
