# SPDX-License-Identifier: Apache-2.0
"""The launch_testing API before ReadyToTest: generate_test_description(ready_fn)."""

import os
import sys
import unittest

import ament_index_python
import launch
import launch.actions
import launch_testing
import launch_testing.asserts
import pytest


@pytest.mark.launch_test
def generate_test_description(ready_fn):
    path = os.path.join(ament_index_python.get_package_prefix('launch_testing'),
                        'lib', 'launch_testing', 'good_proc.py')
    dut = launch.actions.ExecuteProcess(cmd=[sys.executable, path, '--legacy'],
                                        additional_env={'PYTHONUNBUFFERED': '1'})
    return launch.LaunchDescription([
        dut,
        # no ReadyToTest: the description calls ready_fn when the tests may start
        launch.actions.OpaqueFunction(function=lambda context: ready_fn()),
    ]), {'dut': dut}


class TestWhileRunning(unittest.TestCase):

    def test_output(self, proc_output, dut):
        proc_output.assertWaitFor("Called with arguments ['--legacy']", process=dut,
                                  timeout=10, stream='stdout')
        assert proc_output.waitFor('Loop 1', process=dut, timeout=10)
        assert not proc_output.waitFor('never printed', timeout=0.2)


@launch_testing.post_shutdown_test()
class TestAfterShutdown(unittest.TestCase):

    def test_exit_code(self, proc_info, dut):
        launch_testing.asserts.assertExitCodes(proc_info, process=dut)
        assert proc_info.waitForShutdown(process=dut, timeout=1)
