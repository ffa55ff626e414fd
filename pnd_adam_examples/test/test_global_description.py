# SPDX-License-Identifier: Apache-2.0
"""
adam_state_publisher's publish_global_robot_description: the URDF on /robot_description too.

Foxglove Studio 1.x reads a URDF only from /robot_description. In a namespace the node
publishes it there as well when asked (off by default); without a namespace its own
robot_description already is /robot_description, with one publisher. No simulator: the
description is published at start-up, before any lowstate. Nodes in this process, and the
installed executable for the command-line case (a late subscriber in another process).
"""

import time

from pnd_adam_description import urdf
from pnd_adam_examples.state_publisher import AdamStatePublisher
import pytest
import rclpy
from rclpy.executors import SingleThreadedExecutor
from rclpy.parameter import Parameter
from state_publisher_common.qos import LATCHED
from std_msgs.msg import String
import workspace_testing

GLOBAL = '/robot_description'
PUBLISH_GLOBAL = 'publish_global_robot_description'


class Peer:
    """A test node and its executor: late subscribers and graph queries."""

    def __init__(self):
        self.node = rclpy.create_node('global_description_test')
        self.executor = SingleThreadedExecutor()
        self.executor.add_node(self.node)
        self.nodes = []

    def add(self, node):
        self.nodes.append(node)
        self.executor.add_node(node)
        return node

    def spin_until(self, predicate, timeout=15.0):
        end = time.monotonic() + timeout
        while time.monotonic() < end and not predicate():
            self.executor.spin_once(timeout_sec=0.02)
        return predicate()

    def latched(self, topic):
        """Return what a new (late) subscriber of the latched `topic` gets within 5 s."""
        got = []
        sub = self.node.create_subscription(String, topic, got.append, LATCHED)
        self.spin_until(lambda: got, 5.0)
        self.node.destroy_subscription(sub)
        return got

    def publishers(self, topic, name='adam_state_publisher', namespace='/'):
        """Return the publishers of `topic` of the node `name` in `namespace`."""
        return [i for i in self.node.get_publishers_info_by_topic(topic)
                if (i.node_name, i.node_namespace) == (name, namespace)]

    def close(self):
        self.executor.shutdown()
        for node in self.nodes + [self.node]:
            node.destroy_node()


@pytest.fixture
def peer(domain_id):
    rclpy.init()
    p = Peer()
    try:
        yield p
    finally:
        p.close()
        rclpy.try_shutdown()


def test_namespaced_node_does_not_publish_the_global_description_by_default(peer):
    node = peer.add(AdamStatePublisher(namespace='/robot2'))
    descriptor = node.describe_parameter(PUBLISH_GLOBAL)
    assert node.get_parameter(PUBLISH_GLOBAL).value is False
    assert descriptor.read_only and GLOBAL in descriptor.description
    assert peer.spin_until(lambda: peer.publishers('/robot2/robot_description',
                                                   namespace='/robot2'))
    assert peer.publishers(GLOBAL, namespace='/robot2') == []
    assert len(node.description_pubs) == 1


@pytest.mark.parametrize('overrides', [[], [Parameter(PUBLISH_GLOBAL, value=True)]],
                         ids=['default', 'true'])
def test_without_namespace_one_publisher_serves_robot_description(peer, overrides):
    node = peer.add(AdamStatePublisher(parameter_overrides=overrides))
    # robot_description resolves to /robot_description: the default is true, and true adds
    # no second publisher on the same topic.
    assert node.get_parameter(PUBLISH_GLOBAL).value is True
    assert peer.spin_until(lambda: peer.publishers(GLOBAL))
    assert len(peer.publishers(GLOBAL)) == 1 and len(node.description_pubs) == 1
    late = peer.latched(GLOBAL)
    assert len(late) == 1 and late[0].data == urdf.read()


def test_global_description_on_request_equals_the_namespaced_one(peer, domain_id):
    proc = workspace_testing.start(
        [workspace_testing.executable('pnd_adam_examples', 'adam_state_publisher'),
         '--ros-args', '-r', '__ns:=/robot1', '-p', f'{PUBLISH_GLOBAL}:=true'],
        env=workspace_testing.localhost_env(domain_id))
    try:
        peer.spin_until(lambda: peer.publishers(GLOBAL, namespace='/robot1')
                        or proc.poll() is not None, 30.0)
        assert peer.publishers(GLOBAL, namespace='/robot1'), proc.output()
        # Subscribed after the node published: both topics replay the same URDF.
        late = peer.latched(GLOBAL)
        own = peer.latched('/robot1/robot_description')
        assert late and own and late[0].data == own[0].data == urdf.read()
        for topic in (GLOBAL, '/robot1/robot_description'):
            [info] = peer.publishers(topic, namespace='/robot1')
            assert info.qos_profile.durability == LATCHED.durability
            assert info.qos_profile.reliability == LATCHED.reliability
    finally:
        stopped = workspace_testing.stop(proc)
    assert stopped.returncode == 0, stopped.output
    assert 'Traceback' not in stopped.output and 'Callback failed' not in stopped.output
