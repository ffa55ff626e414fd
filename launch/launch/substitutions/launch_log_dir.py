# SPDX-License-Identifier: Apache-2.0
"""LaunchLogDir: the log directory of the current launch."""

from typing import Text

from ..substitution import Substitution


class LaunchLogDir(Substitution):
    """Substitutes the per-run log directory (launch.logging.launch_config.log_dir)."""

    def describe(self) -> Text:
        """Return a description of this substitution as a string."""
        return 'LaunchLogDir()'

    def perform(self, context) -> Text:
        """Return the log directory."""
        import launch.logging
        return launch.logging.launch_config.log_dir
