# SPDX-License-Identifier: Apache-2.0
"""
Status levels as plain ints so the models need no ROS import.

They mirror hb50_commons/msg/Status constants; test_levels.py proves they are equal.
"""

from typing import Dict, Tuple, TypeAlias

OK = 1
WARN = 2
ERROR = 3
STALE = 4

NAMES: Dict[int, str] = {OK: 'OK', WARN: 'WARN', ERROR: 'ERROR', STALE: 'STALE'}

# What the models report: (level, text), published on status by the nodes.
Event: TypeAlias = Tuple[int, str]
