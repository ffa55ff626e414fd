# SPDX-License-Identifier: Apache-2.0
"""launch_testing.parametrize, exit codes, KeepAliveProc and process look-up by name."""

import os
import sys
import unittest

import ament_index_python
import launch
import launch.actions
import launch_testing
import launch_testing.actions
import launch_testing.asserts
import launch_testing.util
import pytest


@pytest.mark.launch_test
@launch_testing.parametrize('code', ['0', '3'])
def generate_test_description(code):
    path = os.path.join(ament_index_python.get_package_share_directory('launch_testing'),
                        'example_processes', 'exit_code_proc.py')
    return launch.LaunchDescription([
        launch.actions.ExecuteProcess(cmd=[sys.executable, path, code], name='exiter'),
        launch_testing.util.KeepAliveProc(),
        launch_testing.actions.ReadyToTest(),
    ])


class TestExit(unittest.TestCase):

    def test_exits_with_the_code(self, proc_info, proc_output, code):
        proc_info.assertWaitForShutdown('exiter', timeout=10)
        proc_output.assertWaitFor(f'Exiting with code {code}', 'exiter', timeout=10)
        launch_testing.asserts.assertExitCodes(proc_info, [int(code)], process='exiter')
        if code != '0':
            with self.assertRaisesRegex(AssertionError, 'exited with code 3'):
                launch_testing.asserts.assertExitCodes(proc_info, process='exiter')


@launch_testing.post_shutdown_test()
class TestAfter(unittest.TestCase):

    def test_exit_code_after_shutdown(self, proc_info, code):
        launch_testing.asserts.assertExitCodes(proc_info, [int(code)], process='exiter')
        assert 'keep_alive_proc' in ' '.join(proc_info.process_names())
