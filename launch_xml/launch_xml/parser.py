# SPDX-License-Identifier: Apache-2.0
"""Parser: the XML frontend (file extension 'xml')."""

from typing import Tuple

import launch.frontend
from launch.frontend.parser import LaunchFileType

from .entity import Entity, parse_file


class Parser(launch.frontend.Parser):
    """Loads ``.launch.xml`` files."""

    extensions = ('xml',)

    @classmethod
    def load(cls, file: LaunchFileType) -> Tuple[Entity, 'Parser']:
        """Return the root entity of an XML launch file (a path or an open file)."""
        if isinstance(file, str):
            with open(file, 'rb') as f:
                return parse_file(file, f.read()), cls()
        data = file.read()
        return parse_file(getattr(file, 'name', '<file>'),
                          data.encode() if isinstance(data, str) else data), cls()
