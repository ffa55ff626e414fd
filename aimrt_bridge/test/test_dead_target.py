# SPDX-License-Identifier: Apache-2.0
"""
The installed bridge node with a dead command target beside a healthy one (issue 13, 6).

One command topic goes to two AimRT targets: a normal http-channel subscriber
(workspace_testing.http_sink.HttpSink) and a TCP server that accepts connections and reads them
forever, never answering. JointCommands are published on ROS 2 at 100 Hz for 2 s while an
AimRT publisher POSTs joint states to the bridge. The healthy target receives every
command in order, the state path publishes every accepted POST meanwhile, and the dead
target's failures and drops are reported while it happens (rate-limited warnings with
counters) and accounted for command by command in the node's exit summary.
"""

import json
import re
import socket
import threading
import time

import aimrt_peer as peer
from aimrt_protocols_msgs.msg import JointCommand as RosJointCommand
import pytest
import rclpy
from rclpy.executors import SingleThreadedExecutor
from rclpy.qos import QoSProfile
from sensor_msgs.msg import JointState
import workspace_testing as wt
from workspace_testing.http_sink import HttpSink

EXE = wt.executable('aimrt_bridge', 'aimrt_bridge_node')
WAIT = 60.0          # upper bound for start-up/discovery on a loaded machine, not a budget
RATE_HZ = 100.0
DURATION_S = 2.0
STATE_TYPE = 'pb:aimrt.protocols.sensor.JointState'
SUMMARY = re.compile(r'AimRT command target (\S+): (\d+) sent, (\d+) failed, (\d+) refused, '
                     r'(\d+) dropped, (\d+) unsent at exit')


@pytest.fixture
def ros_node(domain_id):
    context = rclpy.Context()
    rclpy.init(context=context, domain_id=domain_id)
    node = rclpy.create_node('aimrt_dead_target_test', context=context)
    executor = SingleThreadedExecutor(context=context)
    executor.add_node(node)
    yield node, executor
    executor.shutdown()
    node.destroy_node()
    rclpy.try_shutdown(context=context)


class SilentServer:
    """Accepts TCP connections and reads them until they close; never answers."""

    def __init__(self):
        self.sock = socket.create_server(('127.0.0.1', 0))
        self.port = self.sock.getsockname()[1]
        self.connections = []
        self.received = 0
        self._lock = threading.Lock()
        threading.Thread(target=self._accept, daemon=True).start()

    def _accept(self):
        while True:
            try:
                conn, _ = self.sock.accept()
            except OSError:
                return
            with self._lock:
                self.connections.append(conn)
            threading.Thread(target=self._read, args=(conn,), daemon=True).start()

    def _read(self, conn):
        while True:
            try:
                data = conn.recv(65536)
            except OSError:
                return
            if not data:
                return
            with self._lock:
                self.received += len(data)

    def close(self):
        self.sock.close()
        with self._lock:
            for conn in self.connections:
                conn.close()


def _stamp_of(body):
    """Return the header time_stamp of a protobuf JointCommand POSTed by the bridge."""
    return peer.parse(peer.parse(body)[1][0]).get(1, [0])[0]


def _joint_state_pb(i):
    joint = peer.field_bytes(1, 'j0') + peer.field_double(2, 0.5)
    return peer.field_bytes(1, peer.header(1_000 + i, 'base')) + peer.field_bytes(2, joint)


def test_dead_target_never_blocks_commands_to_others_nor_the_state_path(
        tmp_path, domain_id, ros_node):
    healthy = HttpSink()
    dead = SilentServer()
    port = wt.free_port()
    params = tmp_path / 'dead.yaml'
    params.write_text(json.dumps({'/**': {'ros__parameters': {   # JSON is YAML
        'http_port': port, 'state_aimrt_topics': ['joint_state'],
        'state_types': ['JointState'], 'state_ros_topics': ['dead_t/joint_states'],
        'command_ros_topics': ['dead_t/joint_command'],
        'command_aimrt_topics': ['joint_command'],
        'command_addresses': [f'127.0.0.1:{healthy.port},127.0.0.1:{dead.port}'],
        'http_timeout_sec': 0.5, 'command_queue_depth': 64,
        # the test's reliable ROS 2 stream must not lose commands before the bridge
        'qos_overrides': {'/dead_t/joint_command': {'subscription': {'depth': 1000}}}}}}))
    proc = wt.start([EXE, '--ros-args', '--params-file', str(params)],
                    env=wt.localhost_env(domain_id))
    node, executor = ros_node
    states = []
    sub = node.create_subscription(JointState, 'dead_t/joint_states', states.append,
                                   QoSProfile(depth=1000))
    pub = node.create_publisher(RosJointCommand, 'dead_t/joint_command', QoSProfile(depth=1000))
    posted = []
    stop_posting = threading.Event()

    def post_states():
        i = 0
        while not stop_posting.is_set():
            status, _ = peer.post(port, 'joint_state', STATE_TYPE, _joint_state_pb(i),
                                  'application/protobuf')
            posted.append((i, status))
            i += 1
            time.sleep(0.02)

    poster = threading.Thread(target=post_states, daemon=True)
    try:
        assert wt.wait_for(lambda: proc.poll() is not None or wt.accepting(port), WAIT)
        assert proc.poll() is None, proc.output()

        def matched():
            executor.spin_once(timeout_sec=0.05)
            return pub.get_subscription_count() and node.count_publishers('dead_t/joint_states')
        assert wt.wait_for(matched, WAIT, period=0), 'the bridge never matched'

        def state_arrives():    # until the bridge's publisher has matched ours too
            peer.post(port, 'joint_state', STATE_TYPE, _joint_state_pb(-999),
                      'application/protobuf')
            end = time.monotonic() + 0.2
            while not states and time.monotonic() < end:
                executor.spin_once(timeout_sec=0.02)
            return states
        assert wt.wait_for(state_arrives, WAIT, period=0), 'no state from the bridge'
        for _ in range(5):
            executor.spin_once(timeout_sec=0.02)
        states.clear()

        poster.start()
        stamps = []
        period = 1.0 / RATE_HZ
        start = next_tick = time.monotonic()
        while time.monotonic() - start < DURATION_S:
            msg = RosJointCommand(name=['hip'], position=[0.1])
            msg.header.stamp.nanosec = len(stamps) + 1
            pub.publish(msg)
            stamps.append(len(stamps) + 1)
            next_tick += period
            while (left := next_tick - time.monotonic()) > 0:
                executor.spin_once(timeout_sec=left)
        # reported while it happens: the dead target's first failure and drop
        assert wt.wait_for(lambda: all(
            f'AimRT command target 127.0.0.1:{dead.port}: {reason}' in proc.output()
            for reason in ('failed', 'dropped')), WAIT), proc.output()[-3000:]
        stop_posting.set()
        poster.join(timeout=10)

        got = []

        def all_received():
            while not healthy.requests.empty():
                got.append(_stamp_of(healthy.requests.get_nowait()[2]))
            executor.spin_once(timeout_sec=0.01)
            return len(got) >= len(stamps) and len(states) >= len(posted)
        # A generous bound, not a budget: an executor that waited on the dead target
        # (0.5 s per command) would have forwarded about 20 of the 200 by then.
        wt.wait_for(all_received, 10.0, period=0)
        time.sleep(0.2)
        all_received()
    finally:
        stop_posting.set()
        node.destroy_subscription(sub)
        node.destroy_publisher(pub)
        result = wt.stop(proc)
        healthy.close()
        dead.close()

    # the healthy target got every command, in order, none twice
    assert got == stamps, (len(got), len(stamps))
    # the state path kept working: every POST accepted and published
    assert posted and all(status == 200 for _, status in posted), posted
    assert len(states) == len(posted)
    assert [m.header.stamp.nanosec for m in states] == [1_000 + i for i, _ in posted]
    # the node stopped cleanly and accounted for every command of each target
    assert result.returncode == 0 and 'Traceback' not in result.output, result.output[-3000:]
    summary = {m[1]: [int(x) for x in m.groups()[1:]]
               for m in SUMMARY.finditer(result.output)}
    sent, failed, refused, dropped, unsent = summary[f'127.0.0.1:{healthy.port}']
    assert (sent, failed, refused, dropped, unsent) == (len(stamps), 0, 0, 0, 0)
    sent, failed, refused, dropped, unsent = summary[f'127.0.0.1:{dead.port}']
    assert sent == 0 and refused == 0 and failed >= 1 and dropped >= 1, summary
    assert failed + dropped + unsent == len(stamps), summary
    # the rate limiter (log_period_sec 5 s) made one line per reason, not one per command
    dead_lines = [line for line in result.output.splitlines()
                  if f'target 127.0.0.1:{dead.port}: ' in line and 'WARN' in line]
    assert 2 <= len(dead_lines) <= 4, dead_lines
