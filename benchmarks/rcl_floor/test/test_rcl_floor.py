# SPDX-License-Identifier: Apache-2.0
"""
rcl_floor, the C floor of issue 40: it publishes at the rate asked and takes what it is sent.

One run (< 10 s; 2 s more when the first counting window falls short): the C node
publishes zero-initialised BridgeData on 3 topics at 500 Hz; an rclpy subscriber counts one
of them for 2 s while an rclpy publisher sends it 300 JointCommands; then SIGINT, exit 0,
and its own counts agree. Then the repeatable --pub/--sub specs: publishers and a
subscription of several types on topics of their own, and bad specs refused (exit 2).
"""

import re
import signal
import subprocess
import time

import pytest
import rclpy
from rclpy.qos import DurabilityPolicy, HistoryPolicy, QoSProfile, ReliabilityPolicy
import workspace_testing as wt

MAB_RT = QoSProfile(depth=1, history=HistoryPolicy.KEEP_LAST,
                    reliability=ReliabilityPolicy.BEST_EFFORT,
                    durability=DurabilityPolicy.VOLATILE)
RATE = 500.0


@pytest.fixture
def node():
    wt.isolate()
    rclpy.init()
    n = rclpy.create_node('rcl_floor_test')
    yield n
    n.destroy_node()
    rclpy.try_shutdown()


def spin_for(executor, seconds):
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        executor.spin_once(timeout_sec=0.01)


def test_publishes_at_rate_takes_input_and_exits_0_on_sigint(node):
    from hb50_commons.msg import BridgeData, JointCommand
    from rclpy.executors import SingleThreadedExecutor
    proc = wt.start([wt.executable('rcl_floor', 'rcl_floor'), '--publishers', '3',
                     '--pub-topic', 'floor_test/data', '--sub-topic', 'floor_test/cmd'])
    try:
        assert proc.wait_for_output('running:', 15), proc.output()
        received = []
        node.create_subscription(BridgeData, 'floor_test/data_1',
                                 lambda m: received.append(time.monotonic()), MAB_RT)
        pub = node.create_publisher(JointCommand, 'floor_test/cmd', MAB_RT)
        executor = SingleThreadedExecutor()
        executor.add_node(node)
        deadline = time.monotonic() + 10.0
        while (pub.get_subscription_count() < 1 or not received) \
                and time.monotonic() < deadline:
            spin_for(executor, 0.05)
        assert received and pub.get_subscription_count() == 1, proc.output()
        # 2 s of counting; 300 commands paced 5 ms apart meanwhile. A second window only
        # when the first fell short (this shared VM stalls; the rate is what is checked).
        sent = 0
        for attempt in range(2):
            received.clear()
            start = time.monotonic()
            while time.monotonic() - start < 2.0:
                if sent < 300 and time.monotonic() - start >= sent * 0.005:
                    pub.publish(JointCommand(source_node='rcl_floor_test'))
                    sent += 1
                executor.spin_once(timeout_sec=0.001)
            spin_for(executor, 0.2)
            window = [t for t in received if t - start <= 2.0]
            if len(window) >= 0.8 * RATE * 2.0:
                break
        assert len(window) >= 0.8 * RATE * 2.0, f'{len(window)} samples in 2 s'
        executor.shutdown()
    finally:
        stopped = wt.stop(proc)
    assert stopped.returncode == 0 and stopped.signal == signal.SIGINT, stopped.output
    counts = re.search(r'ticks \(([\d.]+) Hz\).* taken (\d+)', stopped.output)
    assert counts, stopped.output
    assert float(counts.group(1)) >= 0.8 * RATE
    # Best effort, depth 1 on a loaded machine: most, not all, of the paced commands.
    assert 0.8 * sent <= int(counts.group(2)) <= sent, stopped.output


def test_publishers_and_subscriptions_of_several_types_from_specs(node, tmp_path):
    from rclpy.executors import SingleThreadedExecutor
    from rclpy.serialization import serialize_message
    from std_msgs.msg import String, UInt32
    data = tmp_path / 'hello.cdr'
    data.write_bytes(serialize_message(String(data='hello')))
    proc = wt.start([wt.executable('rcl_floor', 'rcl_floor'), '--rate', '100', '--every', '2',
                     '--pub', f'std_msgs/msg/String:spec_test/text:{data}',
                     '--pub', 'hb50_commons/msg/Status:spec_test/status',
                     '--sub', 'std_msgs/msg/UInt32:spec_test/count'])
    try:
        assert proc.wait_for_output('running:', 15), proc.output()
        texts, statuses = [], []
        from hb50_commons.msg import Status
        node.create_subscription(String, 'spec_test/text', texts.append, MAB_RT)
        node.create_subscription(Status, 'spec_test/status', statuses.append, MAB_RT)
        pub = node.create_publisher(UInt32, 'spec_test/count', MAB_RT)
        executor = SingleThreadedExecutor()
        executor.add_node(node)
        deadline = time.monotonic() + 10.0
        while (pub.get_subscription_count() < 1 or not texts or not statuses) \
                and time.monotonic() < deadline:
            spin_for(executor, 0.05)
        assert pub.get_subscription_count() == 1 and texts and statuses, proc.output()
        assert texts[0].data == 'hello'     # the file's bytes, on their own topic and type
        for i in range(20):
            pub.publish(UInt32(data=i))
            spin_for(executor, 0.02)
        executor.shutdown()
    finally:
        stopped = wt.stop(proc)
    assert stopped.returncode == 0, stopped.output
    assert 'publisher of std_msgs/msg/String' in stopped.output
    assert 'subscription of std_msgs/msg/UInt32 on spec_test/count' in stopped.output
    counts = re.search(r'(\d+) ticks .*published (\d+), taken (\d+)', stopped.output)
    assert counts, stopped.output
    ticks, published, taken = (int(g) for g in counts.groups())
    assert published == 2 * ((ticks + 1) // 2)     # both publishers, every 2nd tick
    assert 0 < taken <= 20


@pytest.mark.parametrize('spec', ['--pub=x', '--sub=std_msgs/msg/String',
                                  '--pub=std_msgs/msg/String:t:'])
def test_a_bad_spec_is_a_configuration_error(spec):
    flag, value = spec.split('=', 1)
    result = subprocess.run([wt.executable('rcl_floor', 'rcl_floor'), flag, value],
                            capture_output=True, text=True, timeout=30)
    assert result.returncode == 2
    assert 'configuration error' in result.stderr
