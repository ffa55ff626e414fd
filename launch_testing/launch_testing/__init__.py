# SPDX-License-Identifier: Apache-2.0
"""
Tests of launched systems (ros2/launch's launch_testing) on the workspace's launch.

A test file's ``generate_test_description()`` returns a LaunchDescription with a
``launch_testing.actions.ReadyToTest()`` (and optionally a dict of objects the tests may ask
for by name). Its unittest TestCases run while the launch runs; those decorated with
``post_shutdown_test()`` after it. Test methods take ``proc_output``, ``proc_info``,
``launch_service`` and the dict's names as arguments. Run with ``launch_test <file>`` or
pytest (``@pytest.mark.launch_test`` on generate_test_description).
"""

from . import actions
from . import asserts
from . import markers
from . import tools
from . import util
from .decorator import post_shutdown_test
from .io_handler import ActiveIoHandler
from .io_handler import IoHandler
from .parametrize import parametrize
from .proc_info_handler import ActiveProcInfoHandler
from .proc_info_handler import ProcInfoHandler
from .ready_to_test_action_timeout import ready_to_test_action_timeout

__all__ = [
    'actions',
    'ActiveIoHandler',
    'ActiveProcInfoHandler',
    'asserts',
    'IoHandler',
    'markers',
    'parametrize',
    'post_shutdown_test',
    'ProcInfoHandler',
    'ready_to_test_action_timeout',
    'tools',
    'util',
]
