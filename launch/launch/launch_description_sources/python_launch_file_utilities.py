# SPDX-License-Identifier: Apache-2.0
"""Load Python launch files: modules with generate_launch_description()."""

from importlib.machinery import SourceFileLoader
from importlib.util import module_from_spec, spec_from_loader
from types import ModuleType
from typing import Text

from ..launch_description import LaunchDescription


class InvalidPythonLaunchFileError(Exception):
    """Raised when a Python launch file has no generate_launch_description()."""


def load_python_launch_file_as_module(python_launch_file_path: Text) -> ModuleType:
    """Load (execute) a Python launch file as a module."""
    loader = SourceFileLoader('python_launch_file', python_launch_file_path)
    spec = spec_from_loader(loader.name, loader)
    if spec is None:
        raise RuntimeError('Failed to load module spec!')
    module = module_from_spec(spec)
    loader.exec_module(module)
    return module


def get_launch_description_from_python_launch_file(
    python_launch_file_path: Text
) -> LaunchDescription:
    """Load a Python launch file and return what its generate_launch_description() returns."""
    module = load_python_launch_file_as_module(python_launch_file_path)
    if not hasattr(module, 'generate_launch_description'):
        raise InvalidPythonLaunchFileError(
            f"launch file at '{python_launch_file_path}' does not contain the required "
            "function 'generate_launch_description()'")
    description: LaunchDescription = module.generate_launch_description()
    return description
