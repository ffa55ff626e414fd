# SPDX-License-Identifier: Apache-2.0
"""
horus_foxglove.launch.py under launch_testing (run by `colcon test`).

The bridge (fed by a HORUS publisher of the test, horus_launch.py) and foxglove_live's
server start; the server accepts a WebSocket connection with the subprotocol
foxglove.websocket.v1, sends its serverInfo and advertises the bridge's ROS 2 topics; every
process exits 0 when launch stops it.
"""

import os
import unittest

from ament_index_python.packages import get_package_share_directory
import horus_launch
from horus_msg_py import shm
import launch
from launch.actions import ExecuteProcess, IncludeLaunchDescription
import launch_testing
import launch_testing.actions
import launch_testing.asserts
import pytest
import workspace_testing as wt
from workspace_testing.foxglove import advertised, SUBPROTOCOL

TOPICS = {topic for topic, _ in horus_launch.ROUTES.values()}


@pytest.mark.launch_test
def generate_test_description():
    # launch tests take no fixtures: each run puts this process and its nodes on a domain of
    # its own (at run time: another launch test module may have moved the environment).
    wt.isolate()
    port = wt.free_port()
    namespace, publisher, params = horus_launch.setup()
    path = os.path.join(get_package_share_directory('horus_bridge'), 'launch',
                        'horus_foxglove.launch.py')
    return launch.LaunchDescription([
        ExecuteProcess(cmd=publisher, name='horus_publisher', output='screen'),
        IncludeLaunchDescription(path, launch_arguments=[('params_file', params),
                                                         ('port', str(port))]),
        launch_testing.actions.ReadyToTest(),
    ]), {'namespace': namespace, 'port': port}


class TestFoxglove(unittest.TestCase):

    def test_server_advertises_the_bridge_topics(self, proc_info, port):
        for name in ('horus_bridge', 'foxglove_server'):
            proc_info.assertWaitForStartup(name, timeout=30)
        seen = advertised(port, TOPICS, timeout=60)
        assert seen.subprotocol == SUBPROTOCOL, seen
        assert seen.server_info and seen.server_info['name'], seen
        assert TOPICS <= seen.topics, TOPICS - seen.topics


@launch_testing.post_shutdown_test()
class TestStops(unittest.TestCase):

    def test_every_process_exits_cleanly(self, proc_info, namespace):
        try:
            launch_testing.asserts.assertExitCodes(proc_info)
            assert len(proc_info.process_names()) == 3
        finally:
            shm.remove_namespace(namespace)
