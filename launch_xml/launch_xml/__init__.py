# SPDX-License-Identifier: Apache-2.0
"""The XML frontend of launch: ``.launch.xml`` files (ros2/launch's launch_xml)."""

from .entity import Entity
from .parser import Parser

__all__ = ['Entity', 'Parser']
