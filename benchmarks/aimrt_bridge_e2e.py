# SPDX-License-Identifier: Apache-2.0
"""End-to-end messages/s through aimrt_bridge_node: HTTP POST (protobuf, 20-joint
JointState, one kept-alive connection, as AimRT's http backend sends) -> bridge
-> ROS 2 sensor_msgs/JointState received by a subscriber in this process.

Needs the workspace installed and sourced.  Uses a ROS_DOMAIN_ID in 60-69 and
localhost-only discovery; the bridge process is always stopped.
Usage: python3 benchmarks/aimrt_bridge_e2e.py [messages, default 3000]
"""
import http.client
import json
import os
import random
import socket
import subprocess
import sys
import tempfile
import threading
import time

os.environ['ROS_DOMAIN_ID'] = os.environ.get('AIMRT_BENCH_DOMAIN_ID', str(random.randint(60, 69)))
os.environ['ROS_AUTOMATIC_DISCOVERY_RANGE'] = 'LOCALHOST'

import rclpy  # noqa: E402
from ament_index_python.packages import get_package_prefix  # noqa: E402
from rclpy.qos import QoSProfile  # noqa: E402
from sensor_msgs.msg import JointState as RosJointState  # noqa: E402

from aimrt_protocols_py import codec  # noqa: E402
from aimrt_protocols_py.messages import Header, JointState  # noqa: E402

from _processes import interrupt_and_reap  # noqa: E402 (benchmarks/ is on sys.path)

PATH = '/channel/bench/pb%3Aaimrt.protocols.sensor.JointState'


def free_port():
    with socket.socket() as s:
        s.bind(('127.0.0.1', 0))
        return s.getsockname()[1]


def body(seq):
    msg = JointState(header=Header(time_stamp=time.time_ns(), frame_id='base'))
    for i in range(20):
        msg.joints.add(name=f'joint_{i:02d}', position=seq + 0.1 * i, velocity=0.0, effort=i)
    return codec.encode(msg)


def main():
    count = int(sys.argv[1]) if len(sys.argv) > 1 else 3000
    port = free_port()
    params = {'aimrt_bridge': {'ros__parameters': {
        'http_port': port, 'state_aimrt_topics': ['bench'], 'state_types': ['JointState'],
        'state_ros_topics': ['bench/joint_states'], 'qos_depth': 1000}}}
    cfg = tempfile.NamedTemporaryFile('w', suffix='.yaml', delete=False)
    json.dump(params, cfg)
    cfg.close()
    exe = os.path.join(get_package_prefix('aimrt_bridge'), 'lib', 'aimrt_bridge',
                       'aimrt_bridge_node')
    proc = subprocess.Popen([exe, '--ros-args', '--params-file', cfg.name,
                             '--log-level', 'warn'])
    rclpy.init()
    node = rclpy.create_node('aimrt_bridge_bench')
    got = []
    node.create_subscription(RosJointState, 'bench/joint_states',
                             lambda m: got.append(time.perf_counter()), QoSProfile(depth=1000))
    try:
        deadline = time.monotonic() + 30
        while node.count_publishers('bench/joint_states') == 0 or not got:
            if time.monotonic() > deadline or proc.poll() is not None:
                raise SystemExit('bridge did not come up')
            try:  # warm-up until the first message makes it through
                c = http.client.HTTPConnection('127.0.0.1', port, timeout=2)
                c.request('POST', PATH, body(0), {'Content-Type': 'application/protobuf'})
                c.getresponse().read()
                c.close()
            except OSError:
                pass
            rclpy.spin_once(node, timeout_sec=0.1)
        bodies = [body(i) for i in range(count)]
        for _ in range(20):
            rclpy.spin_once(node, timeout_sec=0.01)
        got.clear()
        done = {}

        def sender():
            conn = http.client.HTTPConnection('127.0.0.1', port, timeout=5)
            start = time.perf_counter()
            for b in bodies:
                conn.request('POST', PATH, b, {'Content-Type': 'application/protobuf'})
                conn.getresponse().read()
            done['post_s'] = time.perf_counter() - start
            done['start'] = start
            conn.close()

        t = threading.Thread(target=sender)
        t.start()
        deadline = time.monotonic() + 60
        while t.is_alive() and time.monotonic() < deadline:
            rclpy.spin_once(node, timeout_sec=0.05)
        stragglers = time.monotonic() + 2  # messages still queued after the last POST
        while len(got) < count and time.monotonic() < stragglers:
            rclpy.spin_once(node, timeout_sec=0.05)
        t.join(timeout=10)
        elapsed = got[-1] - done['start'] if got else float('nan')
        print(f'{count} POSTs of a 20-joint JointState ({len(bodies[0])} B protobuf)')
        print(f"HTTP POST rate (bridge answered):  {count / done['post_s']:8.0f} msg/s")
        print(f'received on ROS 2:                 {len(got)} of {count}')
        print(f'end to end (first POST -> last ROS message): {len(got) / elapsed:8.0f} msg/s')
    finally:
        node.destroy_node()
        rclpy.try_shutdown()
        interrupt_and_reap(proc)
        os.unlink(cfg.name)


if __name__ == '__main__':
    main()
