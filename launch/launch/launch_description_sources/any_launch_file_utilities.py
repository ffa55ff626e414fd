# SPDX-License-Identifier: Apache-2.0
"""Load a launch file of any supported format."""

import os
from typing import Callable, List, Text

from .frontend_launch_file_utilities import get_launch_description_from_frontend_launch_file
from .python_launch_file_utilities import get_launch_description_from_python_launch_file
from ..frontend.parser import Parser
from ..invalid_launch_file_error import InvalidLaunchFileError
from ..launch_description import LaunchDescription


def get_launch_description_from_any_launch_file(launch_file_path: Text) -> LaunchDescription:
    """
    Load a launch file by path and return its launch description.

    ``.py``: Python; an extension a frontend has (``xml``, ``yaml``): that frontend; any other
    name: Python, then the frontends. Raises InvalidLaunchFileError with what each raised.
    """
    extension = os.path.splitext(launch_file_path)[1].lstrip('.')
    python: Callable[[Text], LaunchDescription] = \
        get_launch_description_from_python_launch_file
    frontend: Callable[[Text], LaunchDescription] = \
        get_launch_description_from_frontend_launch_file
    if extension == 'py':
        loaders: List[Callable[[Text], LaunchDescription]] = [python]
    elif Parser.is_filename_valid(launch_file_path):
        loaders = [frontend]
    else:
        loaders = [python, frontend]
        extension = ''
    errors: List[Exception] = []
    for loader in loaders:
        try:
            return loader(launch_file_path)
        except Exception as e:  # noqa: B902 - reported as upstream does
            errors.append(e)
    raise InvalidLaunchFileError(extension, likely_errors=errors)
