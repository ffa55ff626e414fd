# SPDX-License-Identifier: Apache-2.0
"""
foxglove_server (foxglove_live) streaming the HB50 stack, and a client's publish into ROS.

Prints, each beside its target and its floor measured in the same run, with the load average:
- the server's CPU (% of one core) while 1 and then 3 WebSocket clients subscribe to every
  topic of the HB50 stack (bridge_node, control_node, heartbeat_monitor,
  state_publisher_node: 12 topics), beside a bare raw subscriber of the same topics with the
  same QoS and executor in the same window (the floor). Targets: <= 1.5x the floor with
  1 client, <= 2x with 3;
- messages/s per topic at the client beside the floor's, and each 500 Hz topic's loss at
  the client while another client publishes Twist on /hb50/velocity_command at 20 Hz as
  Foxglove's Teleop panel does (target <= 1 %);
- client message -> ROS publish latency: a client sends std_msgs/Header stamped with the
  send time (cdr, then json) at 50 Hz; a probe subscriber reports receipt - stamp. Targets
  p50 <= 1 ms, p99 <= 5 ms. The floor is the same probe receiving from a bare rclpy
  publisher (publish -> callback).

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
from typing import Any, Callable, Dict, List, Optional, Sequence, Tuple

from _cpu_sampling import cpu_seconds
import numpy as np
import numpy.typing as npt
import workspace_testing as wt

FLOOR = r"""
import sys, rclpy
from rclpy.experimental import EventsExecutor
from rclpy.executors import ExternalShutdownException
from ros2bag_mcap import qos as qos_util
from ros2bag_mcap.schema import message_class
rclpy.init()
node = rclpy.create_node('foxglove_bench_floor')
import collections, threading, time
count = collections.Counter()
def counter(topic):
    def on_message(_):
        count[topic] += 1
    return on_message
def report():
    while True:
        time.sleep(0.5)
        print('floor_counts', time.monotonic(),
              ' '.join(f'{t}={n}' for t, n in sorted(count.items())), flush=True)
deadline = time.monotonic() + 20
pending = dict(arg.split('=', 1) for arg in sys.argv[1:])
subs = []
while pending and time.monotonic() < deadline:
    for topic, type_name in list(pending.items()):
        offered = qos_util.offered_profiles(node, topic)
        if offered:
            subs.append(node.create_subscription(
                message_class(type_name), topic, counter(topic),
                qos_util.matching_profile(offered, 25), raw=True))
            del pending[topic]
    time.sleep(0.2)
print('floor subscribed', flush=True)
threading.Thread(target=report, daemon=True).start()
ex = EventsExecutor()
ex.add_node(node)
try:
    while rclpy.ok():
        ex.spin_once(timeout_sec=0.1)
except (KeyboardInterrupt, ExternalShutdownException):
    pass
print(f'floor received {sum(count.values())}', flush=True)
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

# The same two hops without foxglove_server: a bare websockets server in one thread with an
# rclpy publisher, publishing each client MessageData payload as it comes (no checks).
BARE_RELAY = r"""
import asyncio, sys, rclpy
from rclpy.qos import QoSProfile
from std_msgs.msg import Header
from websockets.asyncio.server import serve
rclpy.init()
node = rclpy.create_node('foxglove_bench_bare_relay')
pub = node.create_publisher(Header, '/foxglove_bench/latency', QoSProfile(depth=100))
async def handle(ws):
    async for raw in ws:
        if isinstance(raw, bytes) and raw[:1] == b'\x01':
            pub.publish(raw[5:])
async def main():
    async with serve(handle, '127.0.0.1', int(sys.argv[1]),
                     subprotocols=['foxglove.sdk.v1'], compression=None):
        print('relay ready', flush=True)
        await asyncio.Future()
try:
    asyncio.run(main())
except KeyboardInterrupt:
    pass
"""


async def relay_publish(port: int, n: int, period: float) -> None:
    """Send n stamped cdr Headers to the bare relay (MessageData framing, channel 1)."""
    import websockets
    from websockets.typing import Subprotocol
    from rclpy.serialization import serialize_message
    from std_msgs.msg import Header
    async with websockets.connect(f'ws://127.0.0.1:{port}',
                                  subprotocols=[Subprotocol('foxglove.sdk.v1')]) as ws:
        await asyncio.sleep(2.5)       # the relay's publisher matches the probe
        msg = Header()
        for _ in range(n):
            msg.stamp.sec, msg.stamp.nanosec = divmod(time.time_ns(), 1_000_000_000)
            await ws.send(struct.pack('<BI', 1, 1) + serialize_message(msg))
            await asyncio.sleep(period)
        await asyncio.sleep(0.5)


EXPECTED = {'/hb50/bridge_data', '/hb50/bridge_state', '/hb50/joint_command',
            '/hb50/robot_state', '/hb50/heartbeat', '/hb50/robot_description', '/tf',
            '/tf_static'}


def loadavg() -> str:
    with open('/proc/loadavg') as f:
        return ' '.join(f.read().split()[:3])


def start_stack() -> List[wt.NodeProcess]:
    from ament_index_python.packages import get_package_share_directory
    params = os.path.join(get_package_share_directory('hb50_nodes'), 'config', 'hb50.yaml')
    procs: List[wt.NodeProcess] = []
    for name in ('bridge_node', 'control_node', 'heartbeat_monitor', 'state_publisher_node'):
        # the cheap physics: the machine's cores go to what is measured
        procs.append(wt.start([wt.executable('hb50_nodes', name), '--ros-args',
                               '--params-file', params, '-p', 'physics_engine:=simple']))
    return procs


def _client_module() -> Any:
    sys.path.insert(0, os.path.join(os.path.dirname(__file__), '..', 'foxglove_live', 'test'))
    import ws_protocol_client
    return ws_protocol_client


async def topic_types(port: int) -> Dict[str, str]:
    """Wait until the server advertises every HB50 topic; return {topic: type}."""
    client = await _client_module().WsClient.connect(port)
    try:
        # discovery (0.5 s poll) of every topic of the four nodes
        await client.until(lambda: EXPECTED <= set(client.channels), 40)
        await asyncio.sleep(1.0)
        return {t: c['schemaName'] for t, c in sorted(client.channels.items())
                if t.startswith(('/hb50/', '/tf', '/joint_states'))}
    finally:
        await client.close()


def floor_rates(output: str, t0: float, t1: float) -> Dict[str, float]:
    """{topic: msg/s} the floor received between t0 and t1 (its 0.5 s count lines)."""
    samples: List[Tuple[float, Dict[str, int]]] = []
    for line in output.splitlines():
        parts = line.split()
        if len(parts) >= 2 and parts[0] == 'floor_counts':
            counts = dict(p.split('=', 1) for p in parts[2:])
            samples.append((float(parts[1]), {t: int(n) for t, n in counts.items()}))
    before = [s for s in samples if s[0] <= t0 + 0.25]
    after = [s for s in samples if s[0] >= t1 - 0.25]
    if not before or not after:
        return {}
    (ta, a), (tb, b) = before[-1], after[0]
    return {t: (b.get(t, 0) - a.get(t, 0)) / (tb - ta) for t in b}


async def teleop(port: int, stop: asyncio.Event) -> int:
    """Publish Twist on /hb50/velocity_command at 20 Hz (json), as Studio's Teleop panel."""
    client = await _client_module().WsClient.connect(port)
    sent = 0
    try:
        await client.send(op='advertise', channels=[{
            'id': 1, 'topic': '/hb50/velocity_command', 'encoding': 'json',
            'schemaName': 'geometry_msgs/msg/Twist'}])
        payload = struct.pack('<BI', 1, 1) + json.dumps(
            {'linear': {'x': 0.3, 'y': 0.0, 'z': 0.0},
             'angular': {'x': 0.0, 'y': 0.0, 'z': 0.0}}).encode()
        while not stop.is_set():
            await client.ws.send(payload)
            sent += 1
            await asyncio.sleep(0.05)
    finally:
        await client.close()
    return sent


async def streaming(port: int, topics: Sequence[str], clients_n: int, seconds: float,
                    server: wt.NodeProcess, floor: wt.NodeProcess, with_teleop: bool = False
                    ) -> Tuple[float, float, List[Dict[str, float]], Tuple[float, float]]:
    """
    `clients_n` clients subscribed to every topic for `seconds`.

    Returns (server CPU %, floor CPU %, [per client {topic: msg/s}], window (t0, t1)).
    """
    WsClient = _client_module().WsClient
    clients = [await WsClient.connect(port) for _ in range(clients_n)]
    stop = asyncio.Event()
    drive = asyncio.ensure_future(teleop(port, stop)) if with_teleop else None
    try:
        for c in clients:
            await c.until(lambda c=c: set(topics) <= set(c.channels), 30)
            await c.subscribe(sorted(topics))
        await asyncio.sleep(1.5)
        t0 = time.monotonic()
        cpu0, fcpu0 = cpu_seconds(server.pid), cpu_seconds(floor.pid)
        await asyncio.sleep(seconds)
        t1 = time.monotonic()
        cpu = (cpu_seconds(server.pid) - cpu0) / (t1 - t0) * 100
        fcpu = (cpu_seconds(floor.pid) - fcpu0) / (t1 - t0) * 100
        rates = [{t: sum(1 for r, _, _ in c.received(t) if t0 <= r <= t1) / (t1 - t0)
                  for t in topics} for c in clients]
    finally:
        stop.set()
        if drive is not None:
            await drive
        for c in clients:
            await c.close()
    return cpu, fcpu, rates, (t0, t1)


async def publish(port: int, encoding: str, n: int, period: float) -> None:
    from rclpy.serialization import serialize_message
    from std_msgs.msg import Header
    client = await _client_module().WsClient.connect(port)
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


def probe_latency(run: Callable[[], object]) -> npt.NDArray[np.float64]:
    """Start the probe, run `run()` (the publishing side), return the latencies in us."""
    probe = wt.start([sys.executable, '-c', PROBE])
    probe.wait_for_output('probe ready', 20)
    try:
        run()
    finally:
        out = wt.stop(probe).output or ''
    m = re.search(r'latency_us ?(.*)', out)
    return np.array([float(v) for v in m.group(1).split()]) if m else np.array([])


def describe(values: npt.NDArray[np.float64]) -> str:
    if not len(values):
        return 'no samples'
    return (f'n={len(values)} p50 {np.percentile(values, 50):.0f} us, '
            f'p99 {np.percentile(values, 99):.0f} us, max {values.max():.0f} us')


def verdict(value: float, target: float) -> str:
    return 'met' if value <= target else 'NOT met'


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split('\n\n')[0])
    parser.add_argument('--seconds', type=float, default=10.0)
    parser.add_argument('--domain', type=int)
    parser.add_argument('--latency-only', action='store_true',
                        help='only the client message -> ROS latencies and their floors')
    args = parser.parse_args()
    if args.domain is not None:
        os.environ.update(wt.localhost_env(args.domain, {}))
    else:
        wt.isolate()
    port = wt.free_port()
    stack = start_stack()
    server = wt.start([wt.executable('foxglove_live', 'foxglove_server'), '--ros-args',
                       '-p', f'port:={port}', '-p', 'client_topic_whitelist:='
                       '[/foxglove_bench/latency, /hb50/velocity_command]'])
    floor: Optional[wt.NodeProcess] = None
    phases: Dict[str, Tuple[float, float, List[Dict[str, float]], Dict[str, float], str]] = {}
    try:
        types = asyncio.run(topic_types(port))
        if not args.latency_only:
            # the floor receives the same messages in the same windows, for every phase
            floor = wt.start([sys.executable, '-c', FLOOR,
                              *(f'{t}={ty}' for t, ty in types.items())])
            floor.wait_for_output('floor subscribed', 30)
            time.sleep(1.0)
            for name, n, drive in (('1 client', 1, False), ('3 clients', 3, False),
                                   ('1 client + Teleop 20 Hz', 1, True)):
                cpu, fcpu, rates, (t0, t1) = asyncio.run(
                    streaming(port, list(types), n, args.seconds, server, floor, drive))
                phases[name] = (cpu, fcpu, rates, floor_rates(floor.output(), t0, t1),
                                loadavg())
            wt.stop(floor)
            floor = None

        n, period = int(args.seconds * 20), 0.05
        latency: Dict[str, npt.NDArray[np.float64]] = {}
        for encoding in ('cdr', 'json'):
            def run_publish(e: str = encoding) -> None:
                asyncio.run(publish(port, e, n, period))
            latency[encoding] = probe_latency(run_publish)
        wt.stop(server)

        def bare() -> None:
            pub = wt.start([sys.executable, '-c', BARE_PUBLISHER, str(n), str(period)])
            pub.wait(args.seconds + 30)
        bare_latency = probe_latency(bare)

        def relay() -> None:
            relay_port = wt.free_port()
            proc = wt.start([sys.executable, '-c', BARE_RELAY, str(relay_port)])
            try:
                proc.wait_for_output('relay ready', 20)
                asyncio.run(relay_publish(relay_port, n, period))
            finally:
                wt.stop(proc)
        relay_latency = probe_latency(relay)
    finally:
        for proc in [floor, server] + stack[::-1]:
            if proc is not None:
                wt.stop(proc)
    print(f'foxglove_bench ({args.seconds:g} s per phase, {len(types)} topics)')
    targets: Dict[str, Optional[float]] = {'1 client': 1.5, '3 clients': 2.0,
                                           '1 client + Teleop 20 Hz': None}
    for name, (cpu, fcpu, rates, frates, load) in phases.items():
        ratio = cpu / max(fcpu, 0.1)
        target = targets[name]
        judged = f'target <= {target:g}x: {verdict(ratio, target)}' if target else 'no target'
        print(f'  {name}: server CPU {cpu:.1f} % of a core, floor (bare raw subscriber of the '
              f'same topics, same window) {fcpu:.1f} %, ratio {ratio:.2f}x ({judged}); '
              f'load {load}')
        for topic in sorted(rates[0]):
            got = ', '.join(f'{r[topic]:.1f}' for r in rates)
            ref = frates.get(topic)
            line = f'    {topic}: {got} msg/s at the client' + ('s' if len(rates) > 1 else '')
            if ref:
                line += f', floor {ref:.1f}'
                if ref >= 100:
                    worst = max(0.0, max(1 - r[topic] / ref for r in rates)) * 100
                    line += f', loss {worst:.2f} % (target <= 1 %: {verdict(worst, 1.0)})'
            print(line)
    for encoding, values in latency.items():
        judged = ''
        if len(values):
            p50, p99 = np.percentile(values, 50), np.percentile(values, 99)
            judged = (f' (targets p50 <= 1000 us: {verdict(p50, 1000)}, p99 <= 5000 us: '
                      f'{verdict(p99, 5000)})')
        print(f'  client {encoding} message -> ROS subscriber: {describe(values)}{judged}')
    print(f'  floor, one hop (bare rclpy publish -> same subscriber): {describe(bare_latency)}')
    print(f'  floor, the same two hops (client -> bare websockets relay publishing with rclpy '
          f'-> same subscriber): {describe(relay_latency)}')
    print(f'  load average at the end: {loadavg()}')


if __name__ == '__main__':
    main()
