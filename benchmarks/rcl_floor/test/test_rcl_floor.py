# SPDX-License-Identifier: Apache-2.0
"""
rcl_floor, the C floor of issue 40: it publishes at the rate asked and takes what it is sent.

One run (< 10 s; 2 s more when the first counting window falls short): the C node
publishes zero-initialised BridgeData on 3 topics at 500 Hz; an rclpy subscriber counts one
of them for 2 s while an rclpy publisher sends it 300 JointCommands; then SIGINT, exit 0,
and its own counts agree.
"""

import re
import signal
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
