# SPDX-License-Identifier: Apache-2.0
"""ThisLaunchFileDir: the directory of the launch file being loaded."""

from .this_launch_file import ThisLaunchFile
from ..frontend.expose import expose_substitution


@expose_substitution('dirname')
class ThisLaunchFileDir(ThisLaunchFile):
    """Substitutes the absolute path of the directory of the current launch file."""

    LOCAL = 'current_launch_file_directory'
