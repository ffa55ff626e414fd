# Copyright 2025 The horus_msg_py authors
# SPDX-License-Identifier: Apache-2.0
"""HORUS LaserScan benchmarks (horus_msg_py / horus_bridge).

1. LaserScan bytes -> sensor_msgs/LaserScan conversions per second:
   horus_msg_py (numpy view + array('f') from bytes) vs a naive per-field
   struct/list baseline.
2. Bridge pipeline throughput in one process (shm ring read -> convert -> rclpy
   publish), horus_msg_py vs the naive conversion.
3. End to end through the real bridge node process: our ShmTopicWriter ->
   horus_bridge -> rclpy subscriber, messages/s received.

Usage: python3 benchmarks/horus_laserscan_bench.py [seconds_per_case, default 2]
Needs a sourced workspace (horus_msg_py, horus_bridge installed).
"""

import json
import os
import random
import struct
import subprocess
import sys
import tempfile
import time
import uuid

import numpy as np

from _processes import interrupt_and_reap  # noqa: E402 (benchmarks/ is on sys.path)


def naive_to_ros(raw, sm, Time):
    """Per-field baseline: struct.unpack each field, a Python list for the ranges."""
    out = sm.LaserScan()
    ranges = []
    for i in range(360):
        ranges.append(struct.unpack_from('<f', raw, 4 * i)[0])
    out.ranges = ranges
    out.angle_min = struct.unpack_from('<f', raw, 1440)[0]
    out.angle_max = struct.unpack_from('<f', raw, 1444)[0]
    out.range_min = struct.unpack_from('<f', raw, 1448)[0]
    out.range_max = struct.unpack_from('<f', raw, 1452)[0]
    out.angle_increment = struct.unpack_from('<f', raw, 1456)[0]
    out.time_increment = struct.unpack_from('<f', raw, 1460)[0]
    out.scan_time = struct.unpack_from('<f', raw, 1464)[0]
    ns = struct.unpack_from('<Q', raw, 1472)[0]
    out.header.stamp = Time(sec=ns // 10**9, nanosec=ns % 10**9)
    out.header.frame_id = 'laser'
    return out


def rate(fn, seconds):
    n = 0
    end = time.perf_counter() + seconds
    start = time.perf_counter()
    while time.perf_counter() < end:
        for _ in range(50):
            fn()
        n += 50
    return n / (time.perf_counter() - start)


def main():
    seconds = float(sys.argv[1]) if len(sys.argv) > 1 else 2.0
    os.environ.setdefault('ROS_DOMAIN_ID', str(random.randint(70, 79)))
    os.environ['ROS_AUTOMATIC_DISCOVERY_RANGE'] = 'LOCALHOST'
    ns = 'bench_%d_%s' % (os.getpid(), uuid.uuid4().hex[:6])
    os.environ['HORUS_NAMESPACE'] = ns

    import rclpy
    from builtin_interfaces.msg import Time
    from sensor_msgs import msg as sm
    from ament_index_python.packages import get_package_prefix
    from horus_msg_py import LaserScan, shm
    from horus_msg_py.ros_conversions import laser_scan_to_ros

    scan = LaserScan(ranges=np.linspace(0.1, 30.0, 360), angle_min=-3.14, angle_max=3.14,
                     angle_increment=0.0175, range_min=0.1, range_max=30.0, scan_time=0.1,
                     timestamp_ns=1_700_000_000_123_456_789)
    raw = scan.to_bytes()
    a = laser_scan_to_ros(LaserScan.from_bytes(raw), 'laser')
    b = naive_to_ros(raw, sm, Time)
    assert a == b, 'baseline and horus_msg_py disagree'

    print('== 1. LaserScan bytes -> sensor_msgs/LaserScan (%.1f s per case)' % seconds)
    ours = rate(lambda: laser_scan_to_ros(LaserScan.from_bytes(raw), 'laser'), seconds)
    naive = rate(lambda: naive_to_ros(raw, sm, Time), seconds)
    print('horus_msg_py : %10.0f conversions/s (%.1f us each)' % (ours, 1e6 / ours))
    print('naive        : %10.0f conversions/s (%.1f us each)' % (naive, 1e6 / naive))
    print('speed-up     : %10.2fx' % (ours / naive))

    rclpy.init()
    node = rclpy.create_node('horus_bench')
    try:
        print('== 2. in-process pipeline: shm ring read -> convert -> rclpy publish')
        pub = node.create_publisher(sm.LaserScan, '/bench/inproc', 10)
        with shm.ShmTopicWriter(LaserScan, 'bench.inproc') as writer, \
                shm.ShmTopicReader(LaserScan, 'bench.inproc') as reader:
            def step_ours():
                writer.send(raw)
                pub.publish(laser_scan_to_ros(LaserScan.from_bytes(reader.recv_bytes()),
                                              'laser'))

            def step_naive():
                writer.send(raw)
                pub.publish(naive_to_ros(reader.recv_bytes(), sm, Time))
            r_ours = rate(step_ours, seconds)
            r_naive = rate(step_naive, seconds)
        print('horus_msg_py : %10.0f msg/s' % r_ours)
        print('naive        : %10.0f msg/s' % r_naive)

        print('== 3. end to end: ShmTopicWriter -> horus_bridge process -> rclpy subscriber')
        params = tempfile.NamedTemporaryFile('w', suffix='.yaml', delete=False)
        json.dump({'horus_bridge': {'ros__parameters': {
            'horus_to_ros': ['LaserScan:bench.e2e:/bench/e2e:laser'],
            'horus_start': 'latest', 'poll_period_s': 0.001, 'qos_depth': 100}}}, params)
        params.close()
        exe = os.path.join(get_package_prefix('horus_bridge'), 'lib', 'horus_bridge',
                           'horus_bridge')
        received = [0]
        node.create_subscription(sm.LaserScan, '/bench/e2e',
                                 lambda m: received.__setitem__(0, received[0] + 1), 100)
        with shm.ShmTopicWriter(LaserScan, 'bench.e2e', capacity=4096) as writer:
            bridge = subprocess.Popen([exe, '--ros-args', '--params-file', params.name])
            try:
                deadline = time.monotonic() + 60    # start-up bound on a loaded machine
                while received[0] == 0 and time.monotonic() < deadline:  # warm-up
                    writer.send(raw)
                    rclpy.spin_once(node, timeout_sec=0.05)
                for target in (1000, 5000, 20000):
                    received[0] = 0
                    sent = 0
                    period = 1.0 / target
                    start = time.perf_counter()
                    nxt = start
                    while time.perf_counter() - start < seconds:
                        now = time.perf_counter()
                        while nxt <= now:
                            writer.send(raw)
                            sent += 1
                            nxt += period
                        rclpy.spin_once(node, timeout_sec=0)
                    drain = time.monotonic() + 0.5
                    while time.monotonic() < drain:
                        rclpy.spin_once(node, timeout_sec=0.01)
                    # received includes the 0.5 s drain; the rate is over the send window.
                    print('offered %6d msg/s: sent %6d, received %6d -> %8.0f msg/s (%.0f%%)'
                          % (target, sent, received[0], received[0] / seconds,
                             100.0 * received[0] / max(sent, 1)))
            finally:
                interrupt_and_reap(bridge)
                os.unlink(params.name)
    finally:
        node.destroy_node()
        rclpy.try_shutdown()
        shm.remove_namespace(ns)


if __name__ == '__main__':
    main()
