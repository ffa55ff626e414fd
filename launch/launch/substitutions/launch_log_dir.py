# SPDX-License-Identifier: Apache-2.0
"""LaunchLogDir: the log directory of the current launch."""

from typing import Any, Dict, Sequence, Text, Tuple, Type, TYPE_CHECKING

from ..frontend.expose import expose_substitution
from ..substitution import Substitution

if TYPE_CHECKING:
    from ..launch_context import LaunchContext


@expose_substitution('launch_log_dir')
@expose_substitution('log_dir')
class LaunchLogDir(Substitution):
    """Substitutes the per-run log directory (launch.logging.launch_config.log_dir)."""

    @classmethod
    def parse(cls, data: Sequence[Any]) -> Tuple[Type['LaunchLogDir'], Dict[str, Any]]:
        """Parse ``$(launch_log_dir)`` / ``$(log_dir)`` (no arguments)."""
        if data:
            raise TypeError(f'{cls.__name__} takes no arguments, got {len(data)}')
        return cls, {}

    def describe(self) -> Text:
        """Return a description of this substitution as a string."""
        return 'LaunchLogDir()'

    def perform(self, context: 'LaunchContext') -> Text:
        """Return the log directory."""
        import launch.logging
        return launch.logging.launch_config.log_dir
