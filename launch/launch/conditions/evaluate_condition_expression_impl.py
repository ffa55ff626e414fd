# SPDX-License-Identifier: Apache-2.0
"""evaluate_condition_expression: substitutions that expand to true/1 or false/0."""

from typing import List, TYPE_CHECKING

from .invalid_condition_expression_error import InvalidConditionExpressionError
from ..substitution import Substitution
from ..utilities.perform_substitutions_impl import perform_substitutions

if TYPE_CHECKING:
    from ..launch_context import LaunchContext

VALID_TRUE_EXPRESSIONS = ['true', '1']
VALID_FALSE_EXPRESSIONS = ['false', '0']


def evaluate_condition_expression(
    context: 'LaunchContext', expression: List[Substitution]
) -> bool:
    """
    Expand ``expression`` and return it as a bool.

    The expansion, stripped and lower-cased, must be 'true' or '1' (True), 'false' or '0'
    (False); anything else raises InvalidConditionExpressionError.
    """
    text = perform_substitutions(context, expression).strip().lower()
    if text in VALID_TRUE_EXPRESSIONS:
        return True
    if text in VALID_FALSE_EXPRESSIONS:
        return False
    raise InvalidConditionExpressionError(
        text, expression, VALID_TRUE_EXPRESSIONS + VALID_FALSE_EXPRESSIONS)
