# SPDX-License-Identifier: Apache-2.0
"""
foxglove_server (foxglove_live) streaming the HB50 stack, and a client's publish into ROS.

Prints, each beside its floor measured in the same run, with the load average:
- the server's CPU (% of one core) while one WebSocket client subscribes to every topic of
  the HB50 stack (bridge_node, control_node, heartbeat_monitor, state_publisher_node),
  beside a bare raw subscriber of the same topics with the same QoS and executor (the floor);
  messages/s delivered to the client beside those the floor received;
- client message -> ROS publish latency: a client sends std_msgs/Header stamped with the
  send time (cdr, then json) at 50 Hz; a probe subscriber reports receipt - stamp. The floor
  is the same probe receiving from a bare rclpy publisher (publish -> callback).

Usage: foxglove_bench.py [--seconds 10] [--domain N]
"""

import argparse
import asyncio
import json
import os
import re
import struct
import sys
import time

import numpy as np
import workspace_testing as wt

FLOOR = r"""
import sys, rclpy
from rclpy.experimental import EventsExecutor
from rclpy.executors import ExternalShutdownException
from ros2bag_mcap import qos as qos_util
from ros2bag_mcap.schema import message_class
rclpy.init()
node = rclpy.create_node('foxglove_bench_floor')
count = [0]
def on_message(_):
    count[0] += 1
import time
deadline = time.monotonic() + 20
pending = dict(arg.split('=', 1) for arg in sys.argv[1:])
subs = []
while pending and time.monotonic() < deadline:
    for topic, type_name in list(pending.items()):
        offered = qos_util.offered_profiles(node, topic)
        if offered:
            subs.append(node.create_subscription(
                message_class(type_name), topic, on_message,
                qos_util.matching_profile(offered, 25), raw=True))
            del pending[topic]
    time.sleep(0.2)
print('floor subscribed', flush=True)
ex = EventsExecutor()
ex.add_node(node)
try:
    while rclpy.ok():
        ex.spin_once(timeout_sec=0.1)
except (KeyboardInterrupt, ExternalShutdownException):
    pass
print(f'floor received {count[0]}', flush=True)
"""
PROBE = r"""
import time, rclpy
from rclpy.experimental import EventsExecutor
from rclpy.executors import ExternalShutdownException
from rclpy.qos import QoSProfile
from std_msgs.msg import Header
rclpy.init()
node = rclpy.create_node('foxglove_bench_probe')
late = []
def on_header(msg):
    now = time.time_ns()
    late.append((now - (msg.stamp.sec * 1_000_000_000 + msg.stamp.nanosec)) / 1000.0)
node.create_subscription(Header, '/foxglove_bench/latency', on_header, QoSProfile(depth=100))
ex = EventsExecutor()
ex.add_node(node)
print('probe ready', flush=True)
try:
    while rclpy.ok():
        ex.spin_once(timeout_sec=0.1)
except (KeyboardInterrupt, ExternalShutdownException):
    pass
print('latency_us ' + ' '.join(f'{v:.1f}' for v in late), flush=True)
"""
BARE_PUBLISHER = r"""
import sys, time, rclpy
from rclpy.qos import QoSProfile
from std_msgs.msg import Header
rclpy.init()
node = rclpy.create_node('foxglove_bench_bare_pub')
pub = node.create_publisher(Header, '/foxglove_bench/latency', QoSProfile(depth=100))
n, period = int(sys.argv[1]), float(sys.argv[2])
while pub.get_subscription_count() == 0:
    time.sleep(0.05)
time.sleep(1.0)
msg = Header()
for _ in range(n):
    t = time.time_ns()
    msg.stamp.sec, msg.stamp.nanosec = divmod(t, 1_000_000_000)
    pub.publish(msg)
    time.sleep(period)
time.sleep(0.5)
"""


EXPECTED = {'/hb50/bridge_data', '/hb50/bridge_state', '/hb50/joint_command',
            '/hb50/robot_state', '/hb50/heartbeat', '/hb50/robot_description', '/tf',
            '/tf_static'}


def cpu_seconds(pid):
    with open(f'/proc/{pid}/stat') as f:
        fields = f.read().rsplit(')', 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf('SC_CLK_TCK')


def loadavg():
    with open('/proc/loadavg') as f:
        return ' '.join(f.read().split()[:3])


def start_stack():
    from ament_index_python.packages import get_package_share_directory
    params = os.path.join(get_package_share_directory('hb50_nodes'), 'config', 'hb50.yaml')
    procs = []
    for name in ('bridge_node', 'control_node', 'heartbeat_monitor', 'state_publisher_node'):
        # the cheap physics: the machine's cores go to what is measured
        procs.append(wt.start([wt.executable('hb50_nodes', name), '--ros-args',
                               '--params-file', params, '-p', 'physics_engine:=simple']))
    return procs


async def stream(port, seconds):
    """Subscribe to every advertised /hb50 and /tf topic; return ({topic: type}, counts)."""
    sys.path.insert(0, os.path.join(os.path.dirname(__file__), '..', 'foxglove_live', 'test'))
    from ws_protocol_client import WsClient
    client = await WsClient.connect(port)
    try:
        # discovery (0.5 s poll) of every topic of the four nodes
        await client.until(lambda: EXPECTED <= set(client.channels), 40)
        await asyncio.sleep(1.0)
        topics = sorted(t for t in client.channels
                        if t.startswith(('/hb50/', '/tf', '/joint_states')))
        await client.subscribe(topics)
        await asyncio.sleep(1.0)
        before = {t: len(client.received(t)) for t in topics}
        yield_start = time.monotonic()
        yield {t: client.channels[t]['schemaName'] for t in topics}
        await asyncio.sleep(seconds)
        elapsed = time.monotonic() - yield_start
        yield {t: (len(client.received(t)) - before[t]) / elapsed for t in topics}
    finally:
        await client.close()


async def publish(port, encoding, n, period):
    sys.path.insert(0, os.path.join(os.path.dirname(__file__), '..', 'foxglove_live', 'test'))
    from rclpy.serialization import serialize_message
    from std_msgs.msg import Header
    from ws_protocol_client import WsClient
    client = await WsClient.connect(port)
    try:
        await client.send(op='advertise', channels=[{
            'id': 1, 'topic': '/foxglove_bench/latency', 'encoding': encoding,
            'schemaName': 'std_msgs/msg/Header'}])
        await asyncio.sleep(2.5)       # the server's publisher matches the probe
        msg = Header()
        for _ in range(n):
            t = time.time_ns()
            sec, nsec = divmod(t, 1_000_000_000)
            if encoding == 'cdr':
                msg.stamp.sec, msg.stamp.nanosec = sec, nsec
                payload = serialize_message(msg)
            else:
                payload = json.dumps({'stamp': {'sec': sec, 'nanosec': nsec}}).encode()
            await client.ws.send(struct.pack('<BI', 1, 1) + payload)
            await asyncio.sleep(period)
        await asyncio.sleep(0.5)
    finally:
        await client.close()


def probe_latency(run):
    """Start the probe, run `run()` (the publishing side), return the latencies in us."""
    probe = wt.start([sys.executable, '-c', PROBE])
    probe.wait_for_output('probe ready', 20)
    try:
        run()
    finally:
        out = wt.stop(probe).output
    m = re.search(r'latency_us ?(.*)', out)
    return np.array([float(v) for v in m.group(1).split()]) if m else np.array([])


def describe(values):
    if not len(values):
        return 'no samples'
    return (f'n={len(values)} p50 {np.percentile(values, 50):.0f} us, '
            f'p99 {np.percentile(values, 99):.0f} us, max {values.max():.0f} us')


def main():
    parser = argparse.ArgumentParser(description=__doc__.split('\n\n')[0])
    parser.add_argument('--seconds', type=float, default=10.0)
    parser.add_argument('--domain', type=int)
    args = parser.parse_args()
    if args.domain is not None:
        os.environ.update(wt.localhost_env(args.domain, {}))
    else:
        wt.isolate()
    port = wt.free_port()
    stack = start_stack()
    server = wt.start([wt.executable('foxglove_live', 'foxglove_server'), '--ros-args',
                       '-p', f'port:={port}',
                       '-p', 'client_topic_whitelist:=[/foxglove_bench/latency]'])
    floor = None
    try:
        async def streaming():
            nonlocal floor
            gen = stream(port, args.seconds)
            types = await gen.__anext__()
            # the floor receives the same messages in the same window
            floor = wt.start([sys.executable, '-c', FLOOR,
                              *(f'{t}={ty}' for t, ty in types.items())])
            await asyncio.to_thread(floor.wait_for_output, 'floor subscribed', 30)
            await asyncio.sleep(1.0)
            cpu0, fcpu0, t0 = cpu_seconds(server.pid), cpu_seconds(floor.pid), time.monotonic()
            rates = await gen.__anext__()
            window = time.monotonic() - t0
            cpu = (cpu_seconds(server.pid) - cpu0) / window * 100
            fcpu = (cpu_seconds(floor.pid) - fcpu0) / window * 100
            await gen.aclose()
            return types, rates, cpu, fcpu
        types, rates, server_cpu, floor_cpu = asyncio.run(streaming())
        load_stream = loadavg()
        floor_out = wt.stop(floor).output
        floor = None

        n, period = int(args.seconds * 20), 0.05
        latency = {}
        for encoding in ('cdr', 'json'):
            latency[encoding] = probe_latency(
                lambda e=encoding: asyncio.run(publish(port, e, n, period)))
        wt.stop(server)

        def bare():
            pub = wt.start([sys.executable, '-c', BARE_PUBLISHER, str(n), str(period)])
            pub.wait(args.seconds + 30)
        bare_latency = probe_latency(bare)
    finally:
        for proc in [floor, server] + stack[::-1]:
            if proc is not None:
                wt.stop(proc)
    total = sum(rates.values())
    print(f'foxglove_bench ({args.seconds:g} s per phase, {len(types)} topics)')
    print(f'  server CPU streaming to 1 client: {server_cpu:.1f} % of a core '
          f'({total:.0f} msg/s delivered; load {load_stream})')
    m = re.search(r'floor received (\d+)', floor_out)
    print(f'  floor (bare raw subscriber of the same topics, same window): {floor_cpu:.1f} % '
          f'of a core (received {int(m.group(1)) if m else -1} in all); '
          f'ratio {server_cpu / max(floor_cpu, 0.1):.1f}x')
    for topic, rate in rates.items():
        print(f'    {topic}: {rate:.1f} msg/s to the client')
    for encoding, values in latency.items():
        print(f'  client {encoding} message -> ROS subscriber: {describe(values)}')
    print(f'  floor (bare rclpy publish -> same subscriber): {describe(bare_latency)}')
    print(f'  load average at the end: {loadavg()}')


if __name__ == '__main__':
    main()
