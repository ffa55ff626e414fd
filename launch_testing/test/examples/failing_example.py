# SPDX-License-Identifier: Apache-2.0
"""A launch test that fails (for test_launch_testing.py; not collected by pytest itself)."""

import unittest

import launch
import launch.actions
import launch_testing
import launch_testing.actions
import launch_testing.util
import pytest


@pytest.mark.launch_test
def generate_test_description():
    return launch.LaunchDescription([
        launch.actions.ExecuteProcess(cmd=['echo', 'hello'], output='screen'),
        launch_testing.util.KeepAliveProc(),
        launch_testing.actions.ReadyToTest(),
    ])


class TestFails(unittest.TestCase):

    def test_waits_for_what_never_comes(self, proc_output):
        proc_output.assertWaitFor('goodbye', timeout=0.5)

    def test_passes(self, proc_output):
        proc_output.assertWaitFor('hello', timeout=10)
