# SPDX-License-Identifier: Apache-2.0
"""The YAML frontend of launch: ``.launch.yaml`` files (ros2/launch's launch_yaml)."""

from .entity import Entity
from .parser import Parser

__all__ = ['Entity', 'Parser']
