# SPDX-License-Identifier: Apache-2.0
"""Parser: the YAML frontend (file extensions 'yaml', 'yml')."""

from typing import Tuple

import launch.frontend
from launch.frontend.parser import LaunchFileType

from .entity import Entity, parse_file


class Parser(launch.frontend.Parser):
    """Loads ``.launch.yaml`` files."""

    extensions = ('yaml', 'yml')

    @classmethod
    def load(cls, file: LaunchFileType) -> Tuple[Entity, 'Parser']:
        """Return the root entity of a YAML launch file (a path or an open file)."""
        if isinstance(file, str):
            with open(file, encoding='utf-8') as f:
                return parse_file(file, f.read()), cls()
        return parse_file(getattr(file, 'name', '<file>'), file.read()), cls()
