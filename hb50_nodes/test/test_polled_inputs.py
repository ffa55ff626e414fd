# SPDX-License-Identifier: Apache-2.0
"""
The 500 Hz inputs are taken by the tick, not the executor, and neither starves the other.

- Every joint_command waiting when bridge_node ticks is taken by that tick, and control_node
  takes the newest bridge_data in its tick; the executor never runs a callback for them.
- While joint_command floods at 2 kHz (invalid commands, each refused), `ros2 param set`
  is answered within a period: the set is applied at most one tick after it was sent
  (counted in loop ticks, so a stalled machine skips ticks instead of failing), and every
  flood command is still refused, none lost.
"""

import statistics
import threading
import time

from hb50_commons.msg import BridgeData, JointCommand
from hb50_nodes import qos, topics
from hb50_nodes.bridge_node import BridgeNode
from hb50_nodes.control_node import ControlNode
from hb50_nodes.layout import JOINT_NAMES, NUM_JOINTS
from node_runtime import runner
import pytest
import rclpy
from rclpy.executors import SingleThreadedExecutor
from rclpy.experimental import EventsExecutor
from rclpy.parameter import Parameter
from rclpy.serialization import serialize_message

FLOOD = 2000            # invalid commands, at 2 kHz
SETS = 20               # parameter sets during the flood


@pytest.fixture
def context(domain_id):
    # rclpy's default context: node_runtime.runner.spin, as in the executables, runs while
    # rclpy.ok().
    rclpy.init()
    yield rclpy.get_default_context()
    rclpy.try_shutdown()


def _command(kp):
    return serialize_message(JointCommand(
        source_node='flood', name=list(JOINT_NAMES), kp=[kp] * NUM_JOINTS,
        ki=[0.0] * NUM_JOINTS, kd=[1.0] * NUM_JOINTS, t_pos=[0.0] * NUM_JOINTS,
        t_vel=[0.0] * NUM_JOINTS, t_trq=[0.0] * NUM_JOINTS, brake=[False] * NUM_JOINTS))


def _wait(predicate, timeout=20.0):
    end = time.monotonic() + timeout
    while not predicate():
        assert time.monotonic() < end, 'timed out'
        time.sleep(0.01)


def test_every_waiting_command_is_taken_by_the_next_tick(context):
    node = BridgeNode(context=context)
    peer = rclpy.create_node('polled_peer', namespace='/hb50', context=context)
    executor = EventsExecutor(context=context)
    try:
        executor.add_node(node)
        pub = peer.create_publisher(JointCommand, topics.JOINT_COMMAND, qos.MAB_RT)
        _wait(lambda: pub.get_subscription_count() == 1)
        for _ in range(10):
            pub.publish(_command(-1.0))     # a negative kp: refused
        time.sleep(0.5)
        # The executor is spun while they wait: it takes none of them.
        for _ in range(20):
            executor.spin_once(timeout_sec=0.01)
        assert node.core.rejected == 0
        node.tick(time.monotonic())
        assert node.core.rejected == 10 and node.commands.taken == 10
        node.tick(time.monotonic())
        assert node.core.rejected == 10
    finally:
        executor.shutdown(timeout_sec=1.0)
        peer.destroy_node()
        node.destroy_node()


def test_control_node_takes_the_newest_bridge_data(context):
    node = ControlNode(context=context)
    peer = rclpy.create_node('polled_bridge', namespace='/hb50', context=context)
    try:
        pub = peer.create_publisher(BridgeData, topics.BRIDGE_DATA, qos.MAB_RT)
        _wait(lambda: pub.get_subscription_count() == 1)
        msg = BridgeData(joint_name=list(JOINT_NAMES), joint_position=[0.1] * NUM_JOINTS,
                         joint_velocity=[0.0] * NUM_JOINTS, joint_effort=[0.0] * NUM_JOINTS)
        msg.orientation.w = 1.0
        pub.publish(msg)
        time.sleep(0.5)
        node.tick(time.monotonic())
        assert node.bridge_data.taken == 1
        assert node.core.q.tolist() == pytest.approx([0.1] * NUM_JOINTS)
    finally:
        peer.destroy_node()
        node.destroy_node()


class _Flood(threading.Thread):
    """Publishes FLOOD invalid commands at 2 kHz from a node of its own."""

    def __init__(self, context):
        super().__init__(daemon=True)
        self.node = rclpy.create_node('flood', namespace='/hb50', context=context)
        self.pub = self.node.create_publisher(JointCommand, topics.JOINT_COMMAND, qos.MAB_RT)
        self.sent = 0

    def run(self):
        raw = _command(-1.0)
        start = time.monotonic()
        while self.sent < FLOOD:
            self.pub.publish(raw)
            self.sent += 1
            delay = start + self.sent / 2000.0 - time.monotonic()
            if delay > 0:
                time.sleep(delay)


def test_parameter_set_answered_within_a_period_under_a_flood(context):
    node = BridgeNode(context=context)
    loops = []

    def make_loop(nodes):
        loop = runner.shared_loop(nodes)
        loops.append(loop)
        return loop

    flood = _Flood(context)
    client = rclpy.create_node('param_client', context=context)
    client_executor = SingleThreadedExecutor(context=context)
    client_executor.add_node(client)
    from rcl_interfaces.srv import SetParameters
    setter = client.create_client(SetParameters, '/hb50/bridge_node/set_parameters')
    applied_at = []
    node.add_post_set_parameters_callback(
        lambda parameters: applied_at.append(loops[0].ticks))
    lags = []
    failures = []
    finished = threading.Event()

    def drive():
        try:
            _wait(lambda: setter.service_is_ready() and loops
                  and flood.pub.get_subscription_count() == 1)
            flood.start()
            _wait(lambda: flood.sent >= 200)
            for i in range(SETS):
                request = SetParameters.Request(parameters=[
                    Parameter('kp_max', value=600.0 + i).to_parameter_msg()])
                sent_at = loops[0].ticks
                future = setter.call_async(request)
                while not future.done():
                    client_executor.spin_once(timeout_sec=0.05)
                assert future.result().results[0].successful
                lags.append(applied_at[-1] - sent_at)
                time.sleep(0.02)
            flood.join(timeout=30)
            _wait(lambda: node.core.rejected >= flood.sent)
        except Exception as exc:    # noqa: B902 - reported by the test's thread below
            failures.append(exc)
        finally:
            finished.set()

    driver = threading.Thread(target=drive, daemon=True)
    executor = EventsExecutor(context=context)
    try:
        driver.start()
        runner.spin([node], executor, done=finished.is_set, loop=make_loop)
        driver.join(timeout=5)
        assert not failures, failures
        assert len(lags) == SETS
        # Applied in the executor's spin right after the tick during which it arrived.
        assert statistics.median(lags) <= 1, lags
        assert max(lags) <= 3, lags
        assert flood.sent == FLOOD and node.core.rejected == FLOOD
        assert node.get_parameter('kp_max').value == 600.0 + SETS - 1
    finally:
        executor.shutdown(timeout_sec=1.0)
        client_executor.shutdown(timeout_sec=1.0)
        client.destroy_node()
        flood.node.destroy_node()
        node.destroy_node()
