# SPDX-License-Identifier: Apache-2.0
"""
adam_sim.launch.py under launch_testing (run by `colcon test`).

The simulator starts on the domain given by `domain_id:=`, its lowstate arrives at a plain
Cyclone DDS reader of this test (as at the robot's users) with every motor's state, and it
exits 0 when launch stops it.
"""

import os
import time
import unittest

from ament_index_python.packages import get_package_share_directory
from cyclonedds.domain import DomainParticipant
from cyclonedds.sub import DataReader
from cyclonedds.topic import Topic
import launch
from launch.actions import IncludeLaunchDescription
import launch_testing
import launch_testing.actions
import launch_testing.asserts
from pnd_adam_description.joints import NUM_JOINTS
from pnd_adam_sim.vendor_idl import LowState_, TOPIC_LOWSTATE
import pytest
import workspace_testing as wt
from workspace_testing.adam_sim import cyclone_localhost_uri


@pytest.mark.launch_test
def generate_test_description():
    # launch tests take no fixtures: each run puts this process and its nodes on a domain of
    # its own (at run time: another launch test module may have moved the environment).
    # Its Cyclone DDS (and this test's) stays on the loopback interface.
    domain = wt.isolate()
    os.environ['CYCLONEDDS_URI'] = cyclone_localhost_uri()
    path = os.path.join(get_package_share_directory('pnd_adam_sim'), 'launch',
                        'adam_sim.launch.py')
    return launch.LaunchDescription([
        IncludeLaunchDescription(path, launch_arguments=[('domain_id', str(domain))]),
        launch_testing.actions.ReadyToTest(),
    ]), {'domain': domain}


class TestSimRuns(unittest.TestCase):

    def test_lowstate_arrives(self, proc_info, domain):
        proc_info.assertWaitForStartup('adam_sim', timeout=30)
        participant = DomainParticipant(domain)
        reader = DataReader(participant, Topic(participant, TOPIC_LOWSTATE, LowState_))
        samples = []
        deadline = time.monotonic() + 30
        while len(samples) < 10 and time.monotonic() < deadline:
            samples += reader.take(N=100)
            time.sleep(0.05)
        assert len(samples) >= 10, samples
        assert all(len(s.motor_state) == NUM_JOINTS for s in samples)
        ticks = [s.tick for s in samples]
        assert ticks == sorted(ticks) and ticks[-1] > ticks[0], ticks


@launch_testing.post_shutdown_test()
class TestSimStops(unittest.TestCase):

    def test_sim_exits_cleanly(self, proc_info):
        launch_testing.asserts.assertExitCodes(proc_info)
        assert len(proc_info.process_names()) == 1
