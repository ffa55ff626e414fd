# SPDX-License-Identifier: Apache-2.0
"""InvalidConditionExpressionError: a condition expression that is neither true nor false."""

from typing import List

from ..substitution import Substitution


class InvalidConditionExpressionError(ValueError):
    """Raised when a condition's expression expands to something other than true/false."""

    def __init__(self, expression: str, unexpanded_expression: List[Substitution],
                 valid_expressions: List[str]) -> None:
        """Create the error."""
        source = ' + '.join(str(sub) for sub in unexpanded_expression)
        super().__init__(
            f"invalid condition expression, expected one of [{', '.join(valid_expressions)}] "
            f"but got '{expression}', expanded from '{source}'")
