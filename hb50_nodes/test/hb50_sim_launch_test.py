# SPDX-License-Identifier: Apache-2.0
"""
hb50_sim.launch.py, .xml and .yaml under launch_testing (run by `colcon test`).

Their three nodes start, bridge_data and every node's heartbeat arrive (WaitForTopics), in
the default and in another namespace; there every topic the nodes publish or subscribe is
in that namespace (the graph, seen from a node of the test); every node exits 0 when launch
stops it.
"""

import os
import time
import unittest

from ament_index_python.packages import get_package_share_directory
from hb50_commons.msg import BridgeData, Status
import launch
from launch.actions import IncludeLaunchDescription
import launch_testing
import launch_testing.actions
import launch_testing.asserts
from launch_testing_ros import WaitForTopics
import pytest
import rclpy
import workspace_testing as wt

NODES = ('bridge_node', 'control_node', 'heartbeat_monitor')
# Topics every rclpy node has, outside any namespace.
GLOBAL_TOPICS = {'/rosout', '/parameter_events'}


@pytest.mark.launch_test
@launch_testing.parametrize('launch_file, namespace', [
    ('hb50_sim.launch.py', '/hb50'), ('hb50_sim.launch.py', '/robot2'),
    ('hb50_sim.launch.xml', '/hb50'), ('hb50_sim.launch.xml', '/robot2'),
    ('hb50_sim.launch.yaml', '/robot2')])
def generate_test_description(launch_file, namespace):
    # launch tests take no fixtures: each run puts this process and its nodes on a domain of
    # its own (at run time: another launch test module may have moved the environment).
    wt.isolate()
    path = os.path.join(get_package_share_directory('hb50_nodes'), 'launch', launch_file)
    return launch.LaunchDescription([
        IncludeLaunchDescription(path, launch_arguments=[('namespace', namespace)]),
        launch_testing.actions.ReadyToTest(),
    ])


def node_topics(namespace, timeout=30.0):
    """{node: topics it publishes and subscribes}, once the graph shows all three nodes."""
    context = rclpy.Context()
    rclpy.init(context=context)
    node = rclpy.create_node('hb50_launch_test_graph', context=context)
    try:
        def topics():
            found = {}
            for name in NODES:
                try:
                    found[name] = {t for t, _ in node.get_publisher_names_and_types_by_node(
                        name, namespace)} | {t for t, _ in
                                             node.get_subscriber_names_and_types_by_node(
                                                 name, namespace)}
                except rclpy.node.NodeNameNonExistentError:
                    return None
            # The subscriptions show up a moment after the node: wait for joint_command.
            return found if f'{namespace}/joint_command' in found['bridge_node'] else None
        return wt.wait_for(topics, timeout, period=0.2)
    finally:
        node.destroy_node()
        rclpy.shutdown(context=context)


class TestStackRuns(unittest.TestCase):

    def test_bridge_data_and_every_heartbeat(self, proc_info, namespace):
        for name in NODES:
            proc_info.assertWaitForStartup(name, timeout=30)
        topics = [(f'{namespace}/bridge_data', BridgeData), (f'{namespace}/heartbeat', Status)]
        waiter = WaitForTopics(topics, timeout=60, messages_received_buffer_length=50)
        try:
            assert waiter.wait(), waiter.topics_not_received()
            beats = set()
            for _ in range(300):
                beats |= {m.reporting_node for m in
                          waiter.received_messages(f'{namespace}/heartbeat')}
                if all(any(n in b for b in beats) for n in NODES):
                    break
                time.sleep(0.1)
            assert all(any(n in b for b in beats) for n in NODES), beats
        finally:
            waiter.shutdown()

    def test_every_topic_is_in_the_namespace(self, namespace):
        found = node_topics(namespace)
        assert found, f'the three nodes and their topics did not show up in {namespace}'
        for name, topics in found.items():
            outside = {t for t in topics - GLOBAL_TOPICS if not t.startswith(namespace + '/')}
            assert not outside, (name, outside)
            assert f'{namespace}/heartbeat' in topics, (name, topics)
        assert f'{namespace}/bridge_data' in found['bridge_node']
        assert f'{namespace}/robot_state' in found['control_node']


@launch_testing.post_shutdown_test()
class TestStackStops(unittest.TestCase):

    def test_every_node_exits_cleanly(self, proc_info):
        launch_testing.asserts.assertExitCodes(proc_info)
        assert len(proc_info.process_names()) == 3
