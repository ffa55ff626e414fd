# Copyright 2025 The horus_msg_py authors
# SPDX-License-Identifier: Apache-2.0
"""
HORUS LaserScan benchmarks (horus_msg_py / horus_bridge).

1. LaserScan bytes -> ROS: the message path (sensor_msgs/LaserScan object), the CDR path
   the bridge uses (horus_msg_py.ros_cdr, bytes for publish()) and a naive per-field
   struct/list baseline.
2. Bridge pipeline in one process: shm ring read -> convert -> rclpy publish, message path
   vs batched ring reads + CDR bytes.
3. Floor: a bare rclpy publisher process (pre-serialized LaserScan, the cheapest publish
   rclpy has) -> this process's subscriber, at each offered rate.
4. End to end: a writer process (horus_msg_py ShmTopicWriter) -> horus_bridge process ->
   the same subscriber, at each offered rate; target 20 000 msg/s, none lost.

The subscriber is an rclpy raw subscription (counts serialized LaserScans, no Python
message built) spun by an EventsExecutor, in floor and end to end alike: what is measured
is what reaches a ROS 2 subscriber. Writers and publishers pace themselves in 1 ms batches.

Usage: python3 benchmarks/horus_laserscan_bench.py [seconds_per_case, default 2]
Needs a sourced workspace (horus_msg_py, horus_bridge installed); a free ROS_DOMAIN_ID from
workspace_testing.
"""

import json
import os
import struct
import subprocess
import sys
import tempfile
import time
from typing import Any, Callable, Dict, List, Optional, Tuple
import uuid

from _cpu_sampling import cpu_seconds
import numpy as np
from workspace_testing import allocate_domain, stop as stop_node


def naive_to_ros(raw: bytes, sm: Any, Time: Any) -> Any:
    """Per-field baseline: struct.unpack each field, a Python list for the ranges."""
    out = sm.LaserScan()
    ranges: List[float] = []
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


def rate(fn: Callable[[], object], seconds: float) -> float:
    n = 0
    end = time.perf_counter() + seconds
    start = time.perf_counter()
    while time.perf_counter() < end:
        for _ in range(50):
            fn()
        n += 50
    return n / (time.perf_counter() - start)


RATES = tuple(int(r) for r in os.environ.get('HB_RATES', '1000,5000,20000').split(','))
TARGET = 20000


def sample_bytes() -> bytes:
    from horus_msg_py import LaserScan
    scan = LaserScan(ranges=np.linspace(0.1, 30.0, 360), angle_min=-3.14, angle_max=3.14,
                     angle_increment=0.0175, range_min=0.1, range_max=30.0, scan_time=0.1,
                     timestamp_ns=1_700_000_000_123_456_789)
    return scan.to_bytes()


def paced(send: Callable[[], object], target: float, seconds: float) -> int:
    """Call send() target times a second for seconds, in 1 ms batches; return the count."""
    sent = 0
    period = 1.0 / target
    start = time.perf_counter()
    nxt = start
    while True:
        now = time.perf_counter()
        if now - start >= seconds:
            return sent
        while nxt <= now:
            send()
            sent += 1
            nxt += period
        time.sleep(max(0.0, min(0.001, nxt - time.perf_counter())))


def worker(role: str, topic: str, target: float, seconds: float) -> None:
    """Child process: offer `target` LaserScans/s for `seconds`; print the count sent."""
    raw = sample_bytes()
    if role == 'horus':
        from horus_msg_py import LaserScan, shm
        writer = shm.ShmTopicWriter(LaserScan, topic)
        try:
            sent = paced(lambda: writer.send(raw), target, seconds)
        finally:
            writer.close(unlink=False)  # the topic stays for the next offered rate
    else:
        import rclpy
        from sensor_msgs import msg as sm
        from horus_msg_py.ros_cdr import LaserScanCdr
        cdr = LaserScanCdr('laser')(raw)
        rclpy.init()
        node = rclpy.create_node('horus_bench_floor')
        pub = node.create_publisher(sm.LaserScan, topic, 100)
        deadline = time.monotonic() + 30
        while pub.get_subscription_count() == 0 and time.monotonic() < deadline:
            time.sleep(0.05)
        time.sleep(0.5)   # let the match settle both ways
        sent = paced(lambda: pub.publish(cdr), target, seconds)
        time.sleep(0.2)
        node.destroy_node()
        rclpy.try_shutdown()
    print(sent, flush=True)


def offered_runs(label: str, role: str, topic: str, seconds: float,
                 spin: Callable[[float], None], received: List[int],
                 cpu_pid: Optional[int] = None) -> Dict[int, Tuple[int, int]]:
    """Run a worker per offered rate; print and return {rate: (sent, received)}."""
    results: Dict[int, Tuple[int, int]] = {}
    for target in RATES:
        received[0] = 0
        cpu0 = cpu_seconds(cpu_pid) if cpu_pid else 0.0
        wall0 = time.monotonic()
        child = subprocess.Popen([sys.executable, os.path.abspath(__file__), '--worker', role,
                                  topic, str(target), str(seconds)],
                                 stdout=subprocess.PIPE, text=True)
        while child.poll() is None:
            spin(0.05)
        drain = time.monotonic() + 0.5
        while time.monotonic() < drain:
            spin(0.02)
        assert child.stdout is not None     # stdout=PIPE
        out = child.stdout.read().split()
        sent = int(out[-1]) if out else 0
        results[target] = (sent, received[0])
        cpu = ''
        if cpu_pid:
            used = cpu_seconds(cpu_pid) - cpu0
            cpu = ', bridge CPU %.0f%% of a core, %.1f us/msg' % (
                100.0 * used / (time.monotonic() - wall0), 1e6 * used / max(sent, 1))
        print('%-11s offered %6d msg/s: sent %6d, received %6d -> %8.0f msg/s (%.1f%%)%s'
              % (label, target, sent, received[0], received[0] / seconds,
                 100.0 * received[0] / max(sent, 1), cpu))
    return results


def main() -> None:
    if len(sys.argv) > 1 and sys.argv[1] == '--worker':
        worker(sys.argv[2], sys.argv[3], float(sys.argv[4]), float(sys.argv[5]))
        return
    seconds = float(sys.argv[1]) if len(sys.argv) > 1 else 2.0
    os.environ.setdefault('ROS_DOMAIN_ID', str(allocate_domain()))
    os.environ['ROS_AUTOMATIC_DISCOVERY_RANGE'] = 'LOCALHOST'
    ns = 'bench_%d_%s' % (os.getpid(), uuid.uuid4().hex[:6])
    os.environ['HORUS_NAMESPACE'] = ns

    import rclpy
    from rclpy.experimental import EventsExecutor
    from builtin_interfaces.msg import Time
    from sensor_msgs import msg as sm
    from ament_index_python.packages import get_package_prefix
    from horus_msg_py import LaserScan, shm
    from horus_msg_py.ros_cdr import LaserScanCdr
    from horus_msg_py.ros_conversions import laser_scan_to_ros
    from rclpy.serialization import serialize_message

    raw = sample_bytes()
    a = laser_scan_to_ros(LaserScan.from_bytes(raw), 'laser')
    b = naive_to_ros(raw, sm, Time)
    assert a == b, 'baseline and horus_msg_py disagree'
    cdr = LaserScanCdr('laser')
    assert len(cdr(raw)) == len(serialize_message(a)), 'CDR path and rclpy disagree'

    print('== 1. LaserScan bytes -> ROS (%.1f s per case)' % seconds)
    ours = rate(lambda: laser_scan_to_ros(LaserScan.from_bytes(raw), 'laser'), seconds)
    fast = rate(lambda: cdr(raw), seconds)
    naive = rate(lambda: naive_to_ros(raw, sm, Time), seconds)
    print('message path (sensor_msgs object) : %9.0f conversions/s (%.1f us each)'
          % (ours, 1e6 / ours))
    print('CDR path (bytes for publish)      : %9.0f conversions/s (%.1f us each)'
          % (fast, 1e6 / fast))
    print('naive per-field baseline          : %9.0f conversions/s (%.1f us each)'
          % (naive, 1e6 / naive))

    rclpy.init()
    node = rclpy.create_node('horus_bench')
    executor = EventsExecutor()
    executor.add_node(node)

    def spin(timeout: float) -> None:
        executor.spin_once(timeout_sec=timeout)   # EventsExecutor: always with a timeout
    try:
        print('== 2. in-process pipeline: shm ring read -> convert -> rclpy publish')
        pub = node.create_publisher(sm.LaserScan, '/bench/inproc', 10)
        with shm.ShmTopicWriter(LaserScan, 'bench.inproc') as writer, \
                shm.ShmTopicReader(LaserScan, 'bench.inproc') as reader:
            def step_message() -> None:
                writer.send(raw)
                # just written, so never None; no check added to the measured loop
                pub.publish(laser_scan_to_ros(LaserScan.from_bytes(
                    reader.recv_bytes()), 'laser'))  # type: ignore[arg-type]

            def step_cdr() -> None:     # what the bridge does: batches of 20 reads, CDR bytes
                for _ in range(20):
                    writer.send(raw)
                for data in reader.recv_many(20):
                    pub.publish(cdr(data))
            r_message = rate(step_message, seconds)
            r_cdr = 20 * rate(step_cdr, seconds)
        print('message path           : %9.0f msg/s' % r_message)
        print('batched reads + CDR    : %9.0f msg/s' % r_cdr)

        received = [0]
        node.create_subscription(sm.LaserScan, '/bench/e2e',
                                 lambda m: received.__setitem__(0, received[0] + 1), 100,
                                 raw=True)
        print('== 3. floor: bare rclpy publisher process (CDR bytes) -> rclpy subscriber')
        floor = offered_runs('floor', 'ros', '/bench/e2e', seconds, spin, received)

        print('== 4. end to end: writer process -> horus_bridge process -> rclpy subscriber')
        params = tempfile.NamedTemporaryFile('w', suffix='.yaml', delete=False)
        json.dump({'horus_bridge': {'ros__parameters': {
            'horus_to_ros': ['LaserScan:bench.e2e:/bench/e2e:laser'],
            'horus_start': 'latest',  # default poll period
            'qos_overrides': {'/bench/e2e': {'publisher': {'depth': 100}}}}}}, params)
        params.close()
        exe = os.path.join(get_package_prefix('horus_bridge'), 'lib', 'horus_bridge',
                           'horus_bridge')
        with shm.ShmTopicWriter(LaserScan, 'bench.e2e', capacity=4096) as writer:
            bridge = subprocess.Popen([exe, '--ros-args', '--params-file', params.name,
                                       '--log-level', 'warn'])
            try:
                deadline = time.monotonic() + 60    # start-up bound on a loaded machine
                while received[0] == 0 and time.monotonic() < deadline:  # warm-up
                    writer.send(raw)
                    spin(0.05)
                settle = time.monotonic() + 1.0     # as the floor, let the match settle
                while time.monotonic() < settle:
                    writer.send(raw)
                    spin(0.01)
                e2e = offered_runs('end to end', 'horus', 'bench.e2e', seconds, spin,
                                   received, cpu_pid=bridge.pid)
            finally:
                stop_node(bridge)
                os.unlink(params.name)
        sent, got = e2e[TARGET]
        fsent, fgot = floor[TARGET]
        print('RESULT end to end at %d offered: %.0f msg/s, %d lost (target >= %d msg/s, '
              'none lost); floor (bare rclpy pub -> sub): %.0f msg/s, %d lost'
              % (TARGET, got / seconds, sent - got, TARGET, fgot / seconds, fsent - fgot))
    finally:
        executor.shutdown()
        node.destroy_node()
        rclpy.try_shutdown()
        shm.remove_namespace(ns)


if __name__ == '__main__':
    main()
