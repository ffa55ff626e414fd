# SPDX-License-Identifier: Apache-2.0
"""
End to end through aimrt_bridge_node: HTTP POST -> bridge -> ROS 2 subscriber.

The POSTs are protobuf, a 20-joint JointState, on one kept-alive connection, as AimRT's http
backend sends; a sensor_msgs/JointState subscriber in this process receives them.

The sender is a separate process (as the AimRT peer is). Printed beside the figures:
- floor: the same sender against the bridge's own HTTP server (http_channel.ChannelServer,
  same set-up) whose handler only answers 200, in this process: the HTTP
  machinery alone, no decoding, no ROS;
- targets (issue 12): >= 5000 msg/s end to end, none lost; POST -> ROS callback latency
  p50 <= 200 us at 1 kHz offered.
Latency: the sender stamps each message with CLOCK_MONOTONIC (system-wide) just before
its POST; the subscriber subtracts it from CLOCK_MONOTONIC in its callback.
The throughput subscriber is a raw subscription (counts serialized messages); the latency
subscriber deserializes each message. Both are spun by an EventsExecutor.

Needs the workspace installed and sourced.  Uses a free ROS_DOMAIN_ID (workspace_testing) and
localhost-only discovery; the bridge process is always stopped.
Usage: python3 benchmarks/aimrt_bridge_e2e.py [messages, default 3000] [latency seconds, 3]
"""
import http.client
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time

PATH = '/channel/bench/pb%3Aaimrt.protocols.sensor.JointState'
HEADERS = {'Content-Type': 'application/protobuf'}
TARGET_RATE = 5000
TARGET_P50_US = 200


def body(seq, stamp_ns=None):
    from aimrt_protocols_py import codec
    from aimrt_protocols_py.messages import Header, JointState
    msg = JointState(header=Header(time_stamp=stamp_ns or time.time_ns(), frame_id='base'))
    for i in range(20):
        msg.joints.add(name=f'joint_{i:02d}', position=seq + 0.1 * i, velocity=0.0, effort=i)
    return codec.encode(msg)


def sender(port, mode, amount):
    """
    Child process: POST messages and print the count and seconds.

    'burst' POSTs `amount` messages back to back; 'paced' POSTs at 1 kHz for `amount`
    seconds, each stamped with CLOCK_MONOTONIC.
    """
    conn = http.client.HTTPConnection('127.0.0.1', port, timeout=5)
    sent = 0
    if mode == 'burst':
        bodies = [body(i) for i in range(int(amount))]
        start = time.perf_counter()
        for b in bodies:
            conn.request('POST', PATH, b, HEADERS)
            rsp = conn.getresponse()
            rsp.read()
            sent += rsp.status == 200
    else:
        body(0)     # import the codec before the paced loop starts
        start = time.perf_counter()
        nxt = start
        while time.perf_counter() - start < amount:
            nxt += 0.001
            conn.request('POST', PATH, body(sent, time.monotonic_ns()), HEADERS)
            rsp = conn.getresponse()
            rsp.read()
            sent += rsp.status == 200
            delay = nxt - time.perf_counter()
            if delay > 0:
                time.sleep(delay)
    print(sent, time.perf_counter() - start, flush=True)
    conn.close()


def run_sender(port, mode, amount, spin=None):
    child = subprocess.Popen([sys.executable, os.path.abspath(__file__), '--sender', str(port),
                              mode, str(amount)], stdout=subprocess.PIPE, text=True)
    while child.poll() is None:
        if spin is not None:
            spin(0.02)
        else:
            time.sleep(0.02)
    out = child.stdout.read().split()
    if child.returncode != 0 or len(out) != 2:
        raise SystemExit(f'the sender process failed (exit code {child.returncode})')
    return int(out[0]), float(out[1])


def main():
    if len(sys.argv) > 1 and sys.argv[1] == '--sender':
        sender(int(sys.argv[2]), sys.argv[3], float(sys.argv[4]))
        return
    count = int(sys.argv[1]) if len(sys.argv) > 1 else 3000
    latency_s = float(sys.argv[2]) if len(sys.argv) > 2 else 3.0
    from workspace_testing import allocate_domain, free_port, stop as stop_node
    os.environ['ROS_DOMAIN_ID'] = os.environ.get('AIMRT_BENCH_DOMAIN_ID',
                                                 str(allocate_domain()))
    os.environ['ROS_AUTOMATIC_DISCOVERY_RANGE'] = 'LOCALHOST'

    import rclpy
    from ament_index_python.packages import get_package_prefix
    from rclpy.experimental import EventsExecutor
    from rclpy.qos import QoSProfile
    from sensor_msgs.msg import JointState as RosJointState

    from aimrt_protocols_py.http_channel import ChannelServer

    print(f'{count} POSTs of a 20-joint JointState ({len(body(0))} B protobuf), '
          'one kept-alive connection, sender in its own process')
    floor_server = ChannelServer('127.0.0.1', 0, lambda *a: (200, 'OK'))
    floor_server.start()
    try:
        sent, secs = run_sender(floor_server.port, 'burst', count)
    finally:
        floor_server.stop()
    floor_rate = sent / secs
    print(f'floor: HTTP only (ChannelServer answering 200, no decode, no ROS): '
          f'{floor_rate:8.0f} msg/s')

    port = free_port()
    params = {'aimrt_bridge': {'ros__parameters': {
        'http_port': port, 'state_aimrt_topics': ['bench'], 'state_types': ['JointState'],
        'state_ros_topics': ['bench/joint_states'],
        'qos_overrides': {'/bench/joint_states': {'publisher': {'depth': 1000}}}}}}
    cfg = tempfile.NamedTemporaryFile('w', suffix='.yaml', delete=False)
    json.dump(params, cfg)
    cfg.close()
    exe = os.path.join(get_package_prefix('aimrt_bridge'), 'lib', 'aimrt_bridge',
                       'aimrt_bridge_node')
    proc = subprocess.Popen([exe, '--ros-args', '--params-file', cfg.name,
                             '--log-level', 'warn'])
    rclpy.init()
    node = rclpy.create_node('aimrt_bridge_bench')
    executor = EventsExecutor()
    executor.add_node(node)

    def spin(timeout):
        executor.spin_once(timeout_sec=timeout)    # EventsExecutor: always with a timeout
    got = [0]
    latencies = []
    node.create_subscription(RosJointState, 'bench/joint_states',
                             lambda m: got.__setitem__(0, got[0] + 1), QoSProfile(depth=1000),
                             raw=True)

    def on_stamped(msg):
        sent_ns = msg.header.stamp.sec * 1_000_000_000 + msg.header.stamp.nanosec
        latencies.append((time.monotonic_ns() - sent_ns) / 1000.0)
    try:
        deadline = time.monotonic() + 30
        while node.count_publishers('bench/joint_states') == 0 or not got[0]:
            if time.monotonic() > deadline or proc.poll() is not None:
                raise SystemExit('bridge did not come up')
            try:  # warm-up until the first message makes it through
                c = http.client.HTTPConnection('127.0.0.1', port, timeout=2)
                c.request('POST', PATH, body(0), HEADERS)
                c.getresponse().read()
                c.close()
            except OSError:
                pass
            spin(0.1)
        settle = time.monotonic() + 0.5
        while time.monotonic() < settle:
            spin(0.02)
        got[0] = 0
        start = time.perf_counter()
        sent, post_s = run_sender(port, 'burst', count, spin)
        stragglers = time.monotonic() + 2  # messages still queued after the last POST
        while got[0] < count and time.monotonic() < stragglers:
            spin(0.02)
        rate = got[0] / (time.perf_counter() - start if got[0] < count else post_s)
        lost = count - got[0]
        print(f'HTTP POST rate (bridge answered 200):  {sent / post_s:8.0f} msg/s')
        print(f'received on ROS 2:                     {got[0]} of {count}')
        print(f'end to end:                            {rate:8.0f} msg/s  '
              f'(target >= {TARGET_RATE}, none lost; floor {floor_rate:.0f})')

        node.create_subscription(RosJointState, 'bench/joint_states', on_stamped,
                                 QoSProfile(depth=1000))
        for _ in range(20):
            spin(0.02)
        latencies.clear()
        sent, secs = run_sender(port, 'paced', latency_s, spin)
        stragglers = time.monotonic() + 1
        while len(latencies) < sent and time.monotonic() < stragglers:
            spin(0.02)
        lat = sorted(latencies) or [float('nan')]
        p = lambda q: lat[min(len(lat) - 1, int(q * len(lat)))]  # noqa: E731
        print(f'1 kHz offered for {latency_s:.0f} s: {sent} POSTed, {len(latencies)} received; '
              f'POST -> ROS callback latency p50 {statistics.median(lat):.0f} us, '
              f'p90 {p(0.9):.0f} us, p99 {p(0.99):.0f} us (target p50 <= {TARGET_P50_US} us)')
        print(f'RESULT end to end {rate:.0f} msg/s, {lost} lost (target >= '
              f'{TARGET_RATE}, none lost; HTTP-only floor {floor_rate:.0f} msg/s); latency p50 '
              f'{statistics.median(lat):.0f} us (target <= {TARGET_P50_US} us)')
    finally:
        executor.shutdown()
        node.destroy_node()
        rclpy.try_shutdown()
        stop_node(proc)
        os.unlink(cfg.name)


if __name__ == '__main__':
    main()
