# SPDX-License-Identifier: Apache-2.0
"""
Both directions through aimrt_bridge_node, beside the HTTP-only floor of its server.

State direction (AimRT -> ROS 2): a 20-joint protobuf JointState POSTed on one kept-alive
connection by a raw-socket sender in its own process (request bytes built before the clock
starts, up to WINDOW requests pipelined), received by a raw sensor_msgs/JointState
subscription here, counted and checked in order (the header stamp carries the sequence
number). Latency: the sender stamps each message with CLOCK_MONOTONIC (system-wide) just
before its POST at 1 kHz, the subscriber subtracts it from CLOCK_MONOTONIC in its callback.
The bridge's CPU share over the 1 kHz run comes from /proc/<pid>/stat.

Command direction (ROS 2 -> AimRT): aimrt_protocols_msgs/JointCommand published here as fast
as rclpy allows, forwarded by the bridge to a fast AimRT target (a raw uvloop server in its
own process answering 200 to every request), counted and checked in order there.

Floors, same run: the bridge's own HTTP server (aimrt_protocols_py.http_channel.ChannelServer)
with a no-op handler, driven by the same sender (rate, and POST -> 200 round trip at 1 kHz);
the fast target driven by the same sender; the DDS leg alone: a bare rclpy publisher process
publishing the bridge's JointState CDR bytes at 1 kHz (stamp -> callback here, same
subscriber); the combined floor of the latency: the same server in a child process whose
handler only reads the stamp and publishes pre-built CDR bytes (POST -> callback here, the
same sender and subscriber); and the cost of each step of the bridge's handler (decode, CDR
encode, publish) timed in this process.

Needs the workspace installed and sourced.  Uses a free ROS_DOMAIN_ID (workspace_testing) and
localhost-only discovery; the child processes are always stopped.
Usage: python3 benchmarks/aimrt_bridge_e2e.py [messages, default 20000] [latency seconds, 5]
"""
import gc
import json
import os
import select
import signal
import socket
import struct
import subprocess
import sys
import tempfile
import time
from typing import Any, Callable, cast, Dict, Iterable, List, Optional, Tuple, TypedDict

from _cpu_sampling import cpu_seconds

PATH = b'/channel/bench/pb%3Aaimrt.protocols.sensor.JointState'
WINDOW = 128            # requests in flight at most (pipelined)
TARGET_RATE = 5000
TARGET_P50_US = 300
TARGET_P99_US = 1000
TARGET_COMMANDS = 5000
JOINTS = 20


def joints_bytes() -> bytes:
    """Return the serialized JointState.joints field of the benchmark message."""
    from aimrt_protocols_py import codec
    from aimrt_protocols_py.messages import JointState
    msg = JointState()
    for i in range(JOINTS):
        msg.joints.add(name=f'joint_{i:02d}', position=0.1 * i, velocity=0.0, effort=i)
    return codec.encode(msg)


def header_bytes(stamp_ns: int) -> bytes:
    """Return the serialized JointState.header field with time_stamp = stamp_ns."""
    from aimrt_protocols_py import codec
    from aimrt_protocols_py.messages import Header, JointState
    return codec.encode(JointState(header=Header(time_stamp=stamp_ns, frame_id='base')))


def request(body: bytes) -> bytes:
    """Return the bytes of one channel POST (as AimRT's http backend sends it)."""
    return (b'POST ' + PATH + b' HTTP/1.1\r\nHost: 127.0.0.1\r\n'
            b'Content-Type: application/protobuf\r\nContent-Length: %d\r\n\r\n' % len(body)
            ) + body


def connect(port: int) -> socket.socket:
    sock = socket.create_connection(('127.0.0.1', port), timeout=10)
    sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
    return sock


class Answers:
    """Counts the answers read from a socket (every answer here has an empty body)."""

    def __init__(self, sock: socket.socket, times: Optional[List[float]] = None) -> None:
        self.sock, self.tail, self.count, self.ok = sock, b'', 0, 0
        self.times = times      # perf_counter of each answer read, when a list is given

    def read(self) -> None:
        data = self.sock.recv(1 << 16)
        if not data:
            raise SystemExit('the server closed the connection')
        buf = self.tail + data
        end = buf.rfind(b'\r\n\r\n')
        if end < 0:
            self.tail = buf
            return
        done, self.tail = buf[:end + 4], buf[end + 4:]
        new = done.count(b'\r\n\r\n')
        self.count += new
        if self.times is not None:
            self.times += [time.perf_counter()] * new
        self.ok += done.count(b'HTTP/1.1 200 ')


def send_burst(port: int, amount: int) -> Tuple[int, float]:
    """POST `amount` messages (stamp = sequence number), WINDOW deep; (answered 200, s)."""
    joints = joints_bytes()
    reqs = [request(header_bytes(i + 1) + joints) for i in range(amount)]
    sock = connect(port)
    answers = Answers(sock)
    sent = 0
    start = time.perf_counter()
    while answers.count < amount:
        if sent < amount and sent - answers.count < WINDOW // 2:
            upto = min(amount, answers.count + WINDOW)
            sock.sendall(b''.join(reqs[sent:upto]))
            sent = upto
        answers.read()
    secs = time.perf_counter() - start
    sock.close()
    return answers.ok, secs


def send_paced(port: int, seconds: float,
               rate_hz: float = 1000.0) -> Tuple[int, float, float, float]:
    """
    POST at rate_hz for `seconds`, each stamped with CLOCK_MONOTONIC.

    Returns (answered 200, s, round-trip p50 us, p99 us): POST written -> answer read.
    """
    joints = joints_bytes()
    sock = connect(port)
    sock.setblocking(False)
    answered: List[float] = []
    answers = Answers(sock, answered)
    posted: List[float] = []
    period = 1.0 / rate_hz
    start = time.perf_counter()
    nxt = start
    while nxt - start < seconds:
        while True:
            left = nxt - time.perf_counter()
            if left <= 0:
                break
            if select.select([sock], [], [], left)[0]:
                answers.read()
        data = request(header_bytes(time.monotonic_ns()) + joints)
        posted.append(time.perf_counter())
        sock.sendall(data)
        nxt += period
    sock.setblocking(True)
    sock.settimeout(5)
    while answers.count < len(posted):
        answers.read()
    secs = time.perf_counter() - start
    sock.close()
    rtt = percentiles([(a - p) * 1e6 for p, a in zip(posted, answered)])
    return answers.ok, secs, rtt[0.5], rtt[0.99]


def floor_publisher(node_name: str, topic: str) -> Tuple[Any, Any, bytearray]:
    """
    rclpy.init, then a node and a JointState publisher on `topic` for a floor child process.

    Returns (node, publisher, bytearray): the CDR bytes the bridge publishes for the
    benchmark message, whose stamp (bytes 4-12) the caller patches before each publish.
    """
    from aimrt_protocols_py import codec
    from aimrt_protocols_py.messages import JointState
    from aimrt_protocols_py.ros_cdr import joint_state_to_ros_cdr
    import rclpy
    from rclpy.qos import QoSProfile
    from sensor_msgs.msg import JointState as RosJointState
    data = bytearray(joint_state_to_ros_cdr(
        codec.decode(JointState, header_bytes(1) + joints_bytes())))
    rclpy.init()
    node = rclpy.create_node(node_name)
    return node, node.create_publisher(RosJointState, topic, QoSProfile(depth=1000)), data


def ros_publisher(seconds: float, rate_hz: float = 1000.0) -> None:
    """
    Child process: the DDS floor, a bare rclpy publisher of the bridge's JointState bytes.

    Publishes the serialized sensor_msgs/JointState the bridge would publish for the
    benchmark message (pre-serialized, the stamp patched in: CLOCK_MONOTONIC just before
    publish) at rate_hz for `seconds` on bench/floor_joint_states, sleeping to absolute
    deadlines; no executor, as the bridge publishes from its HTTP thread.
    """
    import rclpy
    node, pub, data = floor_publisher('aimrt_bridge_bench_floor', 'bench/floor_joint_states')
    deadline = time.monotonic() + 30
    while not pub.get_subscription_count() and time.monotonic() < deadline:
        time.sleep(0.01)
    time.sleep(0.5)
    period = 1.0 / rate_hz
    cpu0 = cpu_seconds(os.getpid())
    start = nxt = time.perf_counter()
    sent = 0
    while nxt - start < seconds:
        left = nxt - time.perf_counter()
        if left > 0:
            time.sleep(left)
        ns = time.monotonic_ns()
        struct.pack_into('<iI', data, 4, ns // 1_000_000_000, ns % 1_000_000_000)
        pub.publish(bytes(data))
        sent += 1
        nxt += period
    cpu_pct = (cpu_seconds(os.getpid()) - cpu0) / (time.perf_counter() - start) * 100
    time.sleep(0.5)
    print(sent, cpu_pct, flush=True)
    node.destroy_node()
    rclpy.try_shutdown()


def _stamp_of_body(body: bytes) -> int:
    """Header.time_stamp of a protobuf JointState/JointCommand body (field 1, field 1)."""
    if len(body) < 4 or body[0] != 0x0a or body[2] != 0x08:
        return -1
    value = shift = 0
    for byte in body[3:14]:
        value |= (byte & 0x7f) << shift
        shift += 7
        if byte < 0x80:
            return value
    return -1


class TargetStats(TypedDict):
    """What the fast target counts: requests, last stamp, order, first and last arrival."""

    count: int
    last: int
    in_order: bool
    first_t: float
    last_t: float


def fast_target(expected: int) -> None:
    """
    Child process: an AimRT http-channel subscriber as fast as asyncio/uvloop gets.

    Answers 200 to every request (pipelined ones too), counts them and checks that the
    header stamps increase; prints 'all' after `expected` requests; on SIGTERM prints
    count, in_order, first and last monotonic s.
    """
    import asyncio
    import uvloop
    ok = (b'HTTP/1.1 200 OK\r\nContent-Length: 0\r\n\r\n')
    stats: TargetStats = {'count': 0, 'last': -1, 'in_order': True, 'first_t': 0.0, 'last_t': 0.0}

    class TargetProtocol(asyncio.Protocol):
        def connection_made(self, transport: asyncio.BaseTransport) -> None:
            self.transport, self.buf = cast(asyncio.Transport, transport), b''
            transport.get_extra_info('socket').setsockopt(
                socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)

        def data_received(self, data: bytes) -> None:
            buf = self.buf + data
            pos, answers = 0, 0
            while True:
                end = buf.find(b'\r\n\r\n', pos)
                if end < 0:
                    break
                head = buf[pos:end].lower()
                at = head.find(b'content-length:')
                length = int(head[at + 15:head.find(b'\r\n', at) if head.find(
                    b'\r\n', at) > 0 else None]) if at >= 0 else 0
                if len(buf) < end + 4 + length:
                    break
                stamp = _stamp_of_body(buf[end + 4:end + 4 + length])
                if stamp <= stats['last']:
                    stats['in_order'] = False
                stats['last'] = stamp
                pos = end + 4 + length
                answers += 1
            if answers:
                now = time.monotonic()
                if not stats['count']:
                    stats['first_t'] = now
                stats['count'] += answers
                stats['last_t'] = now
                if stats['count'] - answers < expected <= stats['count']:
                    print('all', flush=True)
                self.transport.write(ok * answers)
            self.buf = buf[pos:]

    loop = uvloop.new_event_loop()
    server = loop.run_until_complete(loop.create_server(TargetProtocol, '127.0.0.1', 0))
    # uvloop's Server has the sockets its stubs (AbstractServer) leave out
    print(server.sockets[0].getsockname()[1], flush=True)  # type: ignore[attr-defined]
    loop.add_signal_handler(signal.SIGTERM, loop.stop)
    loop.run_forever()
    print(stats['count'], int(stats['in_order']), stats['first_t'], stats['last_t'],
          flush=True)


def run_sender(port: int, mode: str, amount: float,
               spin: Optional[Callable[[float], None]] = None) -> Tuple[float, ...]:
    """Run the sender in its own process; spin the executor meanwhile; (answered, s)."""
    child = subprocess.Popen([sys.executable, os.path.abspath(__file__), '--sender', str(port),
                              mode, str(amount)], stdout=subprocess.PIPE, text=True)
    while child.poll() is None:
        if spin is not None:
            spin(0.005)
        else:
            time.sleep(0.02)
    assert child.stdout is not None     # stdout=PIPE
    out = child.stdout.read().split()
    if child.returncode != 0 or len(out) not in (2, 4):
        raise SystemExit(f'the sender process failed (exit code {child.returncode})')
    return (int(out[0]),) + tuple(float(x) for x in out[1:])


class Target:
    """The fast target in its own process."""

    def __init__(self, expected: int) -> None:
        self.proc = subprocess.Popen([sys.executable, os.path.abspath(__file__), '--target',
                                      str(expected)], stdout=subprocess.PIPE, text=True)
        assert self.proc.stdout is not None     # stdout=PIPE
        self.port = int(self.proc.stdout.readline())

    def wait_all(self, timeout: float, spin: Callable[[float], None]) -> None:
        """Spin until the target has all it expects, or timeout s."""
        stdout = self.proc.stdout
        assert stdout is not None       # stdout=PIPE
        end = time.monotonic() + timeout
        while time.monotonic() < end:
            if select.select([stdout], [], [], 0)[0]:
                stdout.readline()
                return
            spin(0.05)

    def result(self) -> Tuple[int, bool, float]:
        """Stop it; (count, in order, seconds from the first to the last request)."""
        self.proc.send_signal(signal.SIGTERM)
        out = self.proc.communicate(timeout=10)[0].split()[-4:]
        count, in_order, first_t, last_t = int(out[0]), out[1] == '1', float(out[2]), \
            float(out[3])
        return count, in_order, last_t - first_t


def stamp_of(body: bytes) -> int:
    """CLOCK_MONOTONIC ns stamp of a benchmark body: the varint Header.time_stamp at byte 3."""
    # body: 0a <header length> 08 <time_stamp varint> ... (JointState.header first)
    value = shift = 0
    for byte in body[3:13]:
        value |= (byte & 0x7F) << shift
        if byte < 0x80:
            return value
        shift += 7
    raise ValueError('no time_stamp varint')


def http_ros_floor() -> None:
    """
    Child process: the combined floor, HTTP server -> rclpy publish with nothing decoded.

    The bridge's ChannelServer with a handler that only reads the stamp varint of the body,
    patches it into the bridge's pre-built JointState CDR bytes and publishes them on
    bench/http_floor_joint_states from the server thread, as the bridge does. Prints its
    port, serves until SIGTERM, then prints its CPU share.
    """
    from aimrt_protocols_py.http_channel import ChannelServer
    import rclpy
    node, pub, data = floor_publisher('aimrt_bridge_bench_http_floor',
                                      'bench/http_floor_joint_states')
    pack = struct.Struct('<iI').pack_into

    def handle(topic: str, msg_type: str, content_type: str, body: bytes) -> Tuple[int, str]:
        sec, nanosec = divmod(stamp_of(body), 1_000_000_000)
        pack(data, 4, sec, nanosec)
        pub.publish(bytes(data))
        return 200, 'OK'
    server = ChannelServer('127.0.0.1', 0, handle)
    server.start()
    gc.freeze()     # as the bridge does
    stop: List[int] = []
    signal.signal(signal.SIGTERM, lambda *a: stop.append(1))
    print(server.port, flush=True)
    cpu0, wall0 = cpu_seconds(os.getpid()), time.monotonic()
    while not stop:
        time.sleep(0.05)
    cpu_pct = (cpu_seconds(os.getpid()) - cpu0) / (time.monotonic() - wall0) * 100
    server.stop()
    print(cpu_pct, flush=True)
    node.destroy_node()
    rclpy.try_shutdown()


def handler_stages(node: Any) -> Dict[str, float]:
    """
    Median cost of each step of the bridge's handler for the benchmark message, in us.

    Measured here (same code as the bridge runs): protobuf decode (codec.decode with its
    unknown-field check), JointState -> CDR (ros_cdr), publish of the CDR bytes.
    """
    from aimrt_protocols_py import codec, conversions
    from aimrt_protocols_py.messages import JointState
    from aimrt_protocols_py.ros_cdr import joint_state_to_ros_cdr
    from rclpy.qos import QoSProfile
    from sensor_msgs.msg import JointState as RosJointState
    body = header_bytes(time.monotonic_ns()) + joints_bytes()
    msg = codec.decode(JointState, body)
    data = joint_state_to_ros_cdr(msg)
    pub = node.create_publisher(RosJointState, 'bench/stage_joint_states', QoSProfile(depth=10))
    accept = frozenset({conversions.LOSS_UNKNOWN_FIELDS})
    steps: Dict[str, Callable[[], object]] = {
        'protobuf decode': lambda: codec.decode(JointState, body),
        'CDR encode': lambda: joint_state_to_ros_cdr(msg, accept_losses=accept),
        'publish (bytes, no subscriber)': lambda: pub.publish(data)}
    result: Dict[str, float] = {}
    for name, step in steps.items():
        runs: List[float] = []
        for _ in range(5):
            start = time.perf_counter()
            for _ in range(500):
                step()
            runs.append((time.perf_counter() - start) / 500 * 1e6)
        result[name] = sorted(runs)[2]
    node.destroy_publisher(pub)
    return result


def percentiles(values: Iterable[float]) -> Dict[float, float]:
    v = sorted(values) or [float('nan')]
    return {q: v[min(len(v) - 1, int(q * len(v)))] for q in (0.5, 0.9, 0.99)}


def main() -> None:
    if len(sys.argv) > 1 and sys.argv[1] == '--sender':
        port, mode, amount = int(sys.argv[2]), sys.argv[3], float(sys.argv[4])
        result = (send_burst(port, int(amount)) if mode == 'burst'
                  else send_paced(port, amount))
        print(*result, flush=True)
        return
    if len(sys.argv) > 1 and sys.argv[1] == '--ros-publisher':
        ros_publisher(float(sys.argv[2]))
        return
    if len(sys.argv) > 1 and sys.argv[1] == '--http-ros-floor':
        http_ros_floor()
        return
    if len(sys.argv) > 1 and sys.argv[1] == '--target':
        fast_target(int(sys.argv[2]))
        return
    count = int(sys.argv[1]) if len(sys.argv) > 1 else 20000
    latency_s = float(sys.argv[2]) if len(sys.argv) > 2 else 5.0
    from workspace_testing import allocate_domain, free_port, stop as stop_node
    os.environ['ROS_DOMAIN_ID'] = os.environ.get('AIMRT_BENCH_DOMAIN_ID',
                                                 str(allocate_domain()))
    os.environ['ROS_AUTOMATIC_DISCOVERY_RANGE'] = 'LOCALHOST'

    from aimrt_protocols_msgs.msg import JointCommand as RosJointCommand
    from aimrt_protocols_py.http_channel import ChannelServer
    from ament_index_python.packages import get_package_prefix
    import rclpy
    from rclpy.experimental import EventsExecutor
    from rclpy.qos import QoSProfile
    from sensor_msgs.msg import JointState as RosJointState

    print(f'load average before: {os.getloadavg()[0]:.2f} {os.getloadavg()[1]:.2f} '
          f'{os.getloadavg()[2]:.2f} (2 cores)')
    size = len(header_bytes(time.monotonic_ns()) + joints_bytes())
    print(f'{count} POSTs of a {JOINTS}-joint JointState ({size} B protobuf), one kept-alive '
          f'connection, up to {WINDOW} pipelined, raw-socket sender in its own process')
    floor_server = ChannelServer('127.0.0.1', 0, lambda *a: (200, 'OK'))
    floor_server.start()
    try:
        ok, secs = run_sender(floor_server.port, 'burst', count)
        _, _, floor_rtt50, floor_rtt99 = run_sender(floor_server.port, 'paced', latency_s)
    finally:
        floor_server.stop()
    floor_rate = ok / secs
    print(f'floor: HTTP only (ChannelServer, no-op handler):   {floor_rate:8.0f} msg/s '
          f'({ok} of {count} answered 200); at 1 kHz POST -> 200 p50 {floor_rtt50:.0f} us, '
          f'p99 {floor_rtt99:.0f} us')
    target: Optional[Target]
    target = Target(count)
    ok, secs = run_sender(target.port, 'burst', count)
    target.result()
    target_floor_rate = ok / secs
    print(f'floor: the fast command target alone (same sender): {target_floor_rate:8.0f} req/s')

    target = Target(count)
    port = free_port()
    depth = max(1000, count)
    params = {'aimrt_bridge': {'ros__parameters': {
        'http_port': port, 'state_aimrt_topics': ['bench'], 'state_types': ['JointState'],
        'state_ros_topics': ['bench/joint_states'],
        'command_ros_topics': ['bench/joint_command'], 'command_aimrt_topics': ['bench_cmd'],
        'command_addresses': [f'127.0.0.1:{target.port}'], 'command_queue_depth': depth,
        'qos_overrides': {'/bench/joint_states': {'publisher': {'depth': depth}},
                          '/bench/joint_command': {'subscription': {'depth': depth}}}}}}
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

    def spin(timeout: float) -> None:
        executor.spin_once(timeout_sec=timeout)    # EventsExecutor: always with a timeout

    unpack = struct.Struct('<iI').unpack_from

    def stamp_log(topic: str) -> List[Tuple[int, int]]:
        """Subscribe raw to `topic`; return the list of (header stamp ns, monotonic ns)."""
        log: List[Tuple[int, int]] = []

        def on_raw(data: bytes) -> None:
            sec, nanosec = unpack(data, 4)      # after the 4-byte CDR encapsulation header
            log.append((sec * 1_000_000_000 + nanosec, time.monotonic_ns()))
        # histories as deep as the run: a subscriber here that falls behind on a loaded
        # machine must not turn into DDS history overwrites counted as bridge losses
        node.create_subscription(RosJointState, topic, on_raw, QoSProfile(depth=depth),
                                 raw=True)
        return log
    received = stamp_log('bench/joint_states')
    floor_received = stamp_log('bench/floor_joint_states')
    http_floor_received = stamp_log('bench/http_floor_joint_states')
    cmd_pub = node.create_publisher(RosJointCommand, 'bench/joint_command',
                                    QoSProfile(depth=depth))
    try:
        deadline = time.monotonic() + 60
        while not received or not cmd_pub.get_subscription_count():
            if time.monotonic() > deadline or proc.poll() is not None:
                raise SystemExit('bridge did not come up')
            try:   # warm-up until the first message makes it through
                sock = connect(port)
                sock.sendall(request(header_bytes(1) + joints_bytes()))
                sock.recv(1024)
                sock.close()
            except OSError:
                pass
            spin(0.1)
        settle = time.monotonic() + 0.5
        while time.monotonic() < settle:
            spin(0.02)

        # ---------------------------------------------------- state direction, burst
        received.clear()
        ok, post_s = run_sender(port, 'burst', count, spin)
        stragglers = time.monotonic() + 10    # messages still queued after the last POST
        while len(received) < count and time.monotonic() < stragglers:
            spin(0.02)
        stamps = [s for s, _ in received]
        in_order = stamps == sorted(stamps) and len(set(stamps)) == len(stamps)
        lost = count - len(received)
        span = (received[-1][1] - received[0][1]) / 1e9 if len(received) > 1 else float('nan')
        rate = (len(received) - 1) / span
        print(f'HTTP POST rate (bridge answered 200):  {ok / post_s:8.0f} msg/s '
              f'({ok} of {count})')
        print(f'state end to end:                      {rate:8.0f} msg/s, {len(received)} '
              f'of {count} received, {"in order" if in_order else "OUT OF ORDER"} '
              f'(target >= {TARGET_RATE}, none lost, in order; floor {floor_rate:.0f})')

        # ---------------------------------------------------- state direction, 1 kHz
        for _ in range(20):
            spin(0.01)
        received.clear()
        cpu0, wall0 = cpu_seconds(proc.pid), time.monotonic()
        sent, secs, rtt50, rtt99 = run_sender(port, 'paced', latency_s, spin)
        cpu = (cpu_seconds(proc.pid) - cpu0) / (time.monotonic() - wall0) * 100
        stragglers = time.monotonic() + 1
        while len(received) < sent and time.monotonic() < stragglers:
            spin(0.02)
        lat = percentiles([(t - s) / 1000.0 for s, t in received])
        print(f'1 kHz offered for {latency_s:.0f} s: {sent} POSTed, {len(received)} received; '
              f'POST -> ROS callback p50 {lat[0.5]:.0f} us (target <= {TARGET_P50_US}), '
              f'p90 {lat[0.9]:.0f} us, p99 {lat[0.99]:.0f} us (target <= {TARGET_P99_US}); '
              f'bridge CPU {cpu:.0f} % of one core; POST -> 200 p50 {rtt50:.0f} us, p99 '
              f'{rtt99:.0f} us')

        stages = handler_stages(node)
        print('bridge handler steps (this process, same code): ' + ', '.join(
            f'{name} {us:.1f} us' for name, us in stages.items()))

        # ---------------------------------------------------- DDS floor, 1 kHz
        floor_received.clear()
        child = subprocess.Popen([sys.executable, os.path.abspath(__file__), '--ros-publisher',
                                  str(latency_s)], stdout=subprocess.PIPE, text=True)
        while child.poll() is None:
            spin(0.005)
        assert child.stdout is not None     # stdout=PIPE
        floor_out = child.stdout.read().split()
        floor_sent, floor_cpu_pct = int(floor_out[0]), float(floor_out[1])
        dds = percentiles([(t - s) / 1000.0 for s, t in floor_received])
        print(f'floor: bare rclpy publish -> this callback at 1 kHz: {floor_sent} published, '
              f'{len(floor_received)} received; p50 {dds[0.5]:.0f} us, p90 {dds[0.9]:.0f} us, '
              f'p99 {dds[0.99]:.0f} us (targets for the bridge {TARGET_P50_US} / '
              f'{TARGET_P99_US} us); publisher CPU {floor_cpu_pct:.0f} % of one core')

        # ---------------------------------------------------- combined floor, 1 kHz
        http_floor_received.clear()
        child = subprocess.Popen([sys.executable, os.path.abspath(__file__),
                                  '--http-ros-floor'], stdout=subprocess.PIPE, text=True)
        try:
            assert child.stdout is not None     # stdout=PIPE
            floor_port = int(child.stdout.readline())
            deadline = time.monotonic() + 30
            while not http_floor_received:      # warm-up until one makes it through
                if time.monotonic() > deadline:
                    raise SystemExit('the HTTP -> rclpy floor did not come up')
                sock = connect(floor_port)
                sock.sendall(request(header_bytes(time.monotonic_ns()) + joints_bytes()))
                sock.recv(1024)
                sock.close()
                spin(0.1)
            settle = time.monotonic() + 0.5
            while time.monotonic() < settle:
                spin(0.02)
            http_floor_received.clear()
            hf_sent, _, _, _ = run_sender(floor_port, 'paced', latency_s, spin)
            stragglers = time.monotonic() + 1
            while len(http_floor_received) < hf_sent and time.monotonic() < stragglers:
                spin(0.02)
        finally:
            child.send_signal(signal.SIGTERM)
            hf_cpu = float(child.communicate(timeout=10)[0].split()[-1])
        both = percentiles([(t - s) / 1000.0 for s, t in http_floor_received])
        print(f'floor: HTTP -> rclpy publish, nothing decoded (same server, same sender, same '
              f'subscriber) at 1 kHz: {hf_sent} POSTed, {len(http_floor_received)} received; '
              f'p50 {both[0.5]:.0f} us, p90 {both[0.9]:.0f} us, p99 {both[0.99]:.0f} us '
              f'(targets for the bridge {TARGET_P50_US} / {TARGET_P99_US} us); its CPU '
              f'{hf_cpu:.0f} % of one core')

        # ---------------------------------------------------- command direction
        template = RosJointCommand(name=[f'joint_{i:02d}' for i in range(JOINTS)],
                                   position=[0.1] * JOINTS)
        start = time.perf_counter()
        for i in range(count):
            template.header.stamp.nanosec = i + 1
            cmd_pub.publish(template)
        publish_rate = count / (time.perf_counter() - start)
        target.wait_all(30.0, spin)
        got, cmd_in_order, cmd_span = target.result()
        target = None
        cmd_rate = (got - 1) / cmd_span if got > 1 and cmd_span > 0 else float('nan')
        print(f'commands ROS -> fast target:           {cmd_rate:8.0f} cmd/s, {got} of {count} '
              f'received, {"in order" if cmd_in_order else "OUT OF ORDER"} (target >= '
              f'{TARGET_COMMANDS}; floors: target alone {target_floor_rate:.0f} req/s, '
              f'rclpy publish here {publish_rate:.0f} msg/s)')
        load = os.getloadavg()
        print(f'RESULT state {rate:.0f} msg/s, {lost} lost, '
              f'{"in order" if in_order else "OUT OF ORDER"} (target >= {TARGET_RATE}; '
              f'HTTP-only floor {floor_rate:.0f}); latency p50 {lat[0.5]:.0f} us, p99 '
              f'{lat[0.99]:.0f} us at 1 kHz (targets {TARGET_P50_US} / {TARGET_P99_US} us; '
              f'floor HTTP -> rclpy publish {both[0.5]:.0f} / {both[0.99]:.0f} us; DDS floor '
              f'{dds[0.5]:.0f} / {dds[0.99]:.0f} us, HTTP floor POST -> 200 '
              f'{floor_rtt50:.0f} / {floor_rtt99:.0f} us); '
              f'bridge CPU {cpu:.0f} % at 1 kHz; commands {cmd_rate:.0f} cmd/s, '
              f'{count - got} lost (target >= {TARGET_COMMANDS}; target-alone floor '
              f'{target_floor_rate:.0f}); load average {load[0]:.2f} {load[1]:.2f} '
              f'{load[2]:.2f}')
    finally:
        executor.shutdown()
        node.destroy_node()
        rclpy.try_shutdown()
        stop_node(proc)
        if target is not None:
            target.proc.kill()
            target.proc.wait()
        os.unlink(cfg.name)


if __name__ == '__main__':
    main()
