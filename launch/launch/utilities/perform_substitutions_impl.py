# SPDX-License-Identifier: Apache-2.0
"""perform_substitutions: the text of a list of substitutions, concatenated."""

from typing import List, Text, TYPE_CHECKING

from ..substitution import Substitution

if TYPE_CHECKING:
    from ..launch_context import LaunchContext


def perform_substitutions(context: 'LaunchContext', subs: List[Substitution]) -> Text:
    """Perform each substitution in ``context`` and concatenate the results."""
    if context is None:     # upstream allows it for substitutions that need no context
        return ''.join(sub.perform(context) for sub in subs)
    return ''.join(context.perform_substitution(sub) for sub in subs)
