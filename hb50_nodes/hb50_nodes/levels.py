# SPDX-License-Identifier: Apache-2.0
"""
Status levels as plain ints so the models need no ROS import.

They mirror hb50_commons/msg/Status constants; test_levels.py proves they are equal.
"""

OK = 1
WARN = 2
ERROR = 3
STALE = 4

NAMES = {OK: 'OK', WARN: 'WARN', ERROR: 'ERROR', STALE: 'STALE'}
