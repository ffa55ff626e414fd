# SPDX-License-Identifier: Apache-2.0
"""Load frontend (XML, YAML) launch files."""

from typing import Text, Type

from ..frontend.parser import Parser
from ..launch_description import LaunchDescription


class InvalidFrontendLaunchFileError(Exception):
    """Raised when no frontend can load a launch file."""


def get_launch_description_from_frontend_launch_file(
    frontend_launch_file_path: Text, *, parser: Type[Parser] = Parser
) -> LaunchDescription:
    """Load a frontend launch file and return its launch description."""
    root, frontend = parser.load(frontend_launch_file_path)
    return frontend.parse_description(root)
