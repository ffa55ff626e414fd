# SPDX-License-Identifier: Apache-2.0
"""launch_testing's good_proc example: active tests on its output, exit code and order."""

import os
import re
import sys
import unittest

import ament_index_python
import launch
import launch.actions
import launch_testing
import launch_testing.actions
from launch_testing.asserts import assertSequentialStdout
import pytest


@pytest.mark.launch_test
def generate_test_description():
    path = os.path.join(ament_index_python.get_package_share_directory('launch_testing'),
                        'example_processes', 'good_proc.py')
    env = os.environ.copy()
    env['PYTHONUNBUFFERED'] = '1'
    dut_process = launch.actions.ExecuteProcess(cmd=[sys.executable, path], env=env,
                                                output='screen')
    return launch.LaunchDescription([
        dut_process,
        launch_testing.actions.ReadyToTest(),
    ]), {'dut_process': dut_process}


class TestGoodProcess(unittest.TestCase):

    def test_count_to_four(self, proc_output):
        for n in range(1, 4):
            proc_output.assertWaitFor(f'Loop {n}', timeout=10, stream='stdout')

    def test_regex_and_process(self, proc_output, dut_process):
        match = proc_output.assertWaitFor(re.compile(r'Loop (\d)'), process=dut_process,
                                          timeout=10)
        assert match.group(1) == '0'
        with self.assertRaises(AssertionError):
            proc_output.assertWaitFor('never printed', timeout=0.2)
        with self.assertRaises(AssertionError):
            proc_output.assertWaitFor('Loop 1', timeout=0.2, stream='stderr')


@launch_testing.post_shutdown_test()
class TestProcessOutput(unittest.TestCase):

    def test_exit_code(self, proc_info):
        launch_testing.asserts.assertExitCodes(proc_info)

    def test_full_output(self, proc_output, dut_process):
        with assertSequentialStdout(proc_output, dut_process) as cm:
            cm.assertInStdout('Starting Up')
            for n in range(4):
                cm.assertInStdout(f'Loop {n}')
            cm.assertInStdout('Shutting Down')

    def test_out_of_order(self, proc_output, dut_process):
        with self.assertRaisesRegex(AssertionError, "'Loop 2' not found"):
            with assertSequentialStdout(proc_output, dut_process) as cm:
                cm.assertInStdout('Loop 1')
                cm.assertInStdout('Loop 3')
                cm.assertInStdout('Loop 2')
