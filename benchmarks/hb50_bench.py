#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""
Benchmark of the simulated HB50 stack (a script, not a test).

Starts the stack (three processes, or the composed `hb50_stack`), lets it stand up, then for
--duration seconds records every message of the 500 Hz / 10 Hz topics and prints per topic:
rate, period jitter p50/p99/max (|interval - nominal period|, from header stamps = publisher
timing, and from receipt times), sequence gaps, one-way latency stamp -> receipt p50/p99, CPU %
of one core per process; then measures command -> applied latency.

Sequence gaps: the messages carry no sequence number (frame_id has a meaning), so a gap is
counted from header stamps: an interval of k nominal periods means k-1 missing messages.
BridgeState has no header: its gaps and jitter come from receipt times only.
Command -> applied: the benchmark briefly takes over as a custom source (>= 10 Hz), copying
control_node's command and toggling the brake of fr_j0; a braked joint reports exactly zero
velocity and effort, so the first BridgeData showing the toggle marks the applied tick. The
latency is that BridgeData's stamp minus the command's publish time (same host clock).

Issue 12 summary (printed last): CPU % of one core per 500 Hz node beside the target (<= 10 %)
and beside a floor measured in the same run (a bare rclpy node publishing BridgeData at 500 Hz
from a timer on the same executor, alone, for the same window) with the ratio (target <= 3x);
p99 period jitter beside 0.1 ms; skipped ticks (stamp gaps), split into those that fall in a VM
stall and the rest: a stall-detector thread in this process sleeps 1 ms at a time and records
every oversleep > 2 ms as a stall interval, so a tick lost while the whole VM stood still is
attributed to it; command -> applied p99 beside 3 ms. By default the 3-process stack and the
composed hb50_stack are measured one after the other (--modes), then the floor. In the
composed process the CPU per node is its loop thread (named after the node) plus half of the
shared executor/DDS threads.

Usage: hb50_bench.py [--duration 30] [--modes 3proc,composed] [--composed] [--node-path DIR]
                     [--executor events|single|multi] [--loop-mode loop|thread|timer]
                     [--busy-wait S]
                     [--rt-priority N] [--domain 39]
Needs the workspace sourced (hb50_nodes installed).
"""

import argparse
import os
import struct
import subprocess
import sys
import tempfile
import threading
import time
from typing import Any, Callable, Dict, List, Optional, Sequence, Tuple, TypedDict, Union

from _bench_common import spin_in_thread, spin_then_close, until
from _cpu_sampling import cpu_seconds
import numpy as np
import numpy.typing as npt
from workspace_testing import allocate_domain


STAMP = struct.Struct('<iI')     # header.stamp right after the 4-byte CDR encapsulation
#: A stall: (start, end) in time.time() seconds.
Stall = Tuple[float, float]


class TopicFigures(TypedDict):
    """Rate, jitter and gaps of one 500 Hz topic (run_stack)."""

    rate: float
    jit_p99: float
    gaps: int
    gaps_in_stalls: int


class Summary(TypedDict, total=False):
    """The summary figures of one stack configuration (run_stack); cpu_total if composed."""

    topics: Dict[str, TopicFigures]
    cpu: Dict[str, float]
    cpu_total: float
    stalls: List[Stall]
    cmd_p99: float


class CommandProbe(TypedDict):
    """The command -> applied probe: (publish ns, brake on) awaited, latencies in ms."""

    pending: Optional[Tuple[int, bool]]
    results: List[float]


def parse() -> argparse.Namespace:
    p = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    p.add_argument('--duration', type=float, default=30.0, help='measurement window (s)')
    p.add_argument('--warmup', type=float, default=4.0, help='stand-up time before measuring')
    p.add_argument('--composed', action='store_true',
                   help='only the composed hb50_stack (same as --modes composed)')
    p.add_argument('--modes', default='3proc,composed',
                   help='comma-separated: 3proc (three processes), composed (hb50_stack)')
    p.add_argument('--node-path', default=None,
                   help="directory prepended to the nodes' PYTHONPATH (e.g. an older "
                        'hb50_nodes checkout, to compare before/after in one phase)')
    p.add_argument('--floor-child', action='store_true', help=argparse.SUPPRESS)
    p.add_argument('--executor', default='events', choices=('events', 'single', 'multi'))
    p.add_argument('--loop-mode', default='loop', choices=('loop', 'thread', 'timer'))
    p.add_argument('--busy-wait', type=float, default=None, help='busy_wait parameter (s)')
    p.add_argument('--rt-priority', type=int, default=None,
                   help='rt_priority parameter (SCHED_FIFO of the 500 Hz loop threads)')
    p.add_argument('--domain', type=int, default=None,
                   help='ROS_DOMAIN_ID (default: a free one from workspace_testing)')
    return p.parse_args()


def pct(values: Union[Sequence[float], npt.NDArray[np.floating[Any]]], q: float) -> float:
    return float(np.percentile(values, q)) if len(values) else float('nan')


def run_stack(args: argparse.Namespace, composed: bool, stalls: 'StallDetector') -> Summary:
    """Run one stack configuration; print its per-topic table; return the summary figures."""
    import rclpy
    from ament_index_python.packages import get_package_prefix
    from hb50_commons.msg import BridgeData, BridgeState, JointCommand, RobotState
    from rclpy.experimental import EventsExecutor

    from hb50_nodes import cdr, qos, topics as table
    from rclpy.serialization import deserialize_message

    hb50 = table.absolute()     # the topics' names in the nodes' default namespace /hb50
    lib = os.path.join(get_package_prefix('hb50_nodes'), 'lib', 'hb50_nodes')
    ros_args = ['--ros-args', '-p', f'loop_mode:={args.loop_mode}', '--log-level', 'warn']
    if args.busy_wait is not None:
        ros_args += ['-p', f'busy_wait:={args.busy_wait}']
    if args.rt_priority is not None:
        ros_args += ['-p', f'rt_priority:={args.rt_priority}']
    if composed:
        exes = ['hb50_stack']
    else:
        exes = ['bridge_node', 'control_node', 'heartbeat_monitor']
    # Node stderr goes to files: at exit a 500 Hz node logs the ticks it skipped after stalls,
    # which tells publisher-side gaps from messages lost on the way.
    logs = {exe: tempfile.TemporaryFile(mode='w+') for exe in exes}
    env = dict(os.environ)
    if args.node_path:
        env['PYTHONPATH'] = args.node_path + os.pathsep + env.get('PYTHONPATH', '')
    procs = {exe: subprocess.Popen([os.path.join(lib, exe)] + (
        ros_args if exe != 'heartbeat_monitor' else ['--ros-args', '--log-level', 'warn']),
        stderr=logs[exe], env=env) for exe in exes}

    rclpy.init()
    node = rclpy.create_node('hb50_bench')
    topics = {hb50.BRIDGE_DATA: BridgeData, hb50.BRIDGE_STATE: BridgeState,
              hb50.BRIDGE_STATE_10HZ: BridgeState, hb50.JOINT_COMMAND: JointCommand,
              hb50.ROBOT_STATE: RobotState, hb50.ROBOT_STATE_10HZ: RobotState}
    records: Dict[str, List[Tuple[int, int]]] = {t: [] for t in topics}
    summary: Summary = {'topics': {}}
    recording = threading.Event()
    latest_cmd: Dict[str, bytes] = {}
    probe: CommandProbe = {'pending': None, 'results': []}

    # Raw subscriptions: the stamps are read from the CDR bytes (hb50_nodes.cdr), so this
    # subscriber of six topics costs a fraction of a deserializing one on the shared 2 cores.
    def make_cb(topic: str) -> Callable[[bytes], None]:
        has_header = topic not in (hb50.BRIDGE_STATE, hb50.BRIDGE_STATE_10HZ)
        rec = records[topic]

        def cb(raw: bytes) -> None:
            now = time.time_ns()
            from_control = False
            if topic == hb50.JOINT_COMMAND:
                reader = cdr.Reader(raw)
                reader.header()
                from_control = reader.string() == 'control_node'
                if from_control:
                    latest_cmd['raw'] = raw
            if topic == hb50.BRIDGE_DATA and probe['pending'] is not None:
                sent, brake_on = probe['pending']
                msg = cdr.decode_bridge_data(raw)
                braked = msg.joint_velocity[0] == 0.0 and msg.joint_effort[0] == 0.0
                if braked == brake_on:
                    stamp = msg.sec * 1_000_000_000 + msg.nanosec
                    probe['results'].append((stamp - sent) * 1e-6)
                    probe['pending'] = None
            if recording.is_set():
                if topic == hb50.JOINT_COMMAND and not from_control:
                    return
                if has_header:
                    sec, nanosec = STAMP.unpack_from(raw, 4)
                    rec.append((now, sec * 1_000_000_000 + nanosec))
                else:
                    rec.append((now, 0))
        return cb

    for topic, msg_type in topics.items():
        node.create_subscription(msg_type, topic, make_cb(topic), qos.profile_for(topic),
                                 raw=True)
    cmd_pub = node.create_publisher(JointCommand, hb50.JOINT_COMMAND, qos.MAB_RT)
    executor = EventsExecutor()
    executor.add_node(node)
    stop, spinner = spin_in_thread(executor, 0.05)
    try:
        time.sleep(args.warmup)
        pids = {exe: p.pid for exe, p in procs.items()}
        pids['bench (subscriber)'] = os.getpid()
        cpu0 = {k: cpu_seconds(pid) for k, pid in pids.items()}
        threads0: Dict[str, float] = thread_cpu(procs['hb50_stack'].pid) if composed else {}
        t0 = time.monotonic()
        stalls.mark()
        recording.set()
        time.sleep(args.duration)
        recording.clear()
        wall = time.monotonic() - t0
        window = stalls.since_mark()
        cpu = {k: 100.0 * (cpu_seconds(pid) - cpu0[k]) / wall for k, pid in pids.items()}
        if composed:
            threads1 = thread_cpu(procs['hb50_stack'].pid)
            per_thread = {name: 100.0 * (v - threads0.get(name, 0.0)) / wall
                          for name, v in threads1.items()}

        # Command -> applied latency: take over with brake toggles on fr_j0 for ~4 s.
        for i in range(400):
            raw = latest_cmd.get('raw')
            if raw is not None:
                base = deserialize_message(raw, JointCommand)
                brake_on = (i // 5) % 2 == 1
                base.source_node = 'hb50_bench'
                base.brake = [brake_on] + [False] * 11
                if i % 5 == 0 and i >= 10 and probe['pending'] is None:
                    probe['pending'] = (time.time_ns(), brake_on)
                base.header.stamp.sec, base.header.stamp.nanosec = divmod(time.time_ns(),
                                                                          1_000_000_000)
                cmd_pub.publish(base)
            time.sleep(0.01)
    finally:
        stop.set()
        spinner.join(2.0)
        for p in procs.values():
            p.send_signal(2)
        for p in procs.values():
            try:
                p.wait(5.0)
            except subprocess.TimeoutExpired:
                p.kill()
        executor.shutdown(timeout_sec=1.0)
        node.destroy_node()
        rclpy.try_shutdown()

    print(f'\nHB50 stack benchmark: {"composed hb50_stack" if composed else "3 processes"},'
          f' executor={args.executor}, loop_mode={args.loop_mode}, {args.duration:.0f} s, '
          f'busy_wait={args.busy_wait}, rt_priority={args.rt_priority}, {os.cpu_count()} CPUs, '
          f'ROS_DOMAIN_ID={os.environ["ROS_DOMAIN_ID"]}')
    head = (f'{"topic":26s} {"msgs":>6s} {"rate Hz":>8s} {"jit p50":>8s} {"p99":>7s} {"max":>7s}'
            f'  {"rx jit p99":>10s} {"rx max":>7s} {"gaps":>5s} {"lat p50":>8s} {"p99":>7s}')
    print(head + '\n' + '(jitter and latency in ms; jit = stamp intervals, rx = receipt)')
    for topic in topics:
        rate_nominal = table.spec(topic).rate
        period = 1.0 / rate_nominal
        data = np.array(records[topic], dtype=np.int64).reshape(-1, 2)
        n = len(data)
        if n < 3:
            print(f'{topic:26s} {n:6d}   (too few messages)')
            continue
        rx = data[:, 0] * 1e-9
        has_stamp = data[0, 1] != 0
        pub = data[:, 1] * 1e-9 if has_stamp else rx
        intervals = np.diff(pub)
        rate = (n - 1) / (pub[-1] - pub[0])
        jit = np.abs(intervals - period) * 1e3
        rx_jit = np.abs(np.diff(rx) - period) * 1e3
        gaps = int(np.sum(np.maximum(np.rint(intervals / period) - 1, 0)))
        if has_stamp:
            lat = (data[:, 0] - data[:, 1]) * 1e-6
            lat_s = f'{pct(lat, 50):8.3f} {pct(lat, 99):7.3f}'
        else:
            lat_s = f'{"n/a":>8s} {"n/a":>7s}'
        jit_s = (f'{pct(jit, 50):8.3f} {pct(jit, 99):7.3f} {jit.max():7.3f}' if has_stamp
                 else f'{"(rx)":>8s} {"":7s} {"":7s}')
        print(f'{topic:26s} {n:6d} {rate:8.2f} {jit_s}  {pct(rx_jit, 99):10.3f} '
              f'{rx_jit.max():7.3f} {gaps:5d} {lat_s}')
        if topic in (hb50.BRIDGE_DATA, hb50.ROBOT_STATE) and has_stamp:
            in_stall = stall_gaps(pub, period, window)
            summary['topics'][topic] = {'rate': rate, 'jit_p99': pct(jit, 99), 'gaps': gaps,
                                        'gaps_in_stalls': in_stall}
    # Receiver-side losses: joint_command and robot_state carry the same stamp every tick, so a
    # stamp present on one and missing on the other was published and lost on the way.
    cmd_stamps = {s for _, s in records[hb50.JOINT_COMMAND]}
    state_stamps = {s for _, s in records[hb50.ROBOT_STATE]}
    if cmd_stamps and state_stamps:
        lo = max(min(cmd_stamps), min(state_stamps))
        hi = min(max(cmd_stamps), max(state_stamps))
        lost_cmd = sum(1 for s in state_stamps - cmd_stamps if lo <= s <= hi)
        lost_state = sum(1 for s in cmd_stamps - state_stamps if lo <= s <= hi)
        print(f'\nlost in transit (stamp seen on the sibling topic only): '
              f'joint_command {lost_cmd}, robot_state {lost_state}')
    print('publisher side (node logs at exit, over the whole run incl. warm-up):')
    for exe, log in logs.items():
        log.seek(0)
        lines = [line.strip() for line in log if 'ticks skipped' in line]
        print(f'  {exe:22s} ' + ('; '.join(lines) if lines else 'no tick skipped'))
        log.close()
    print('\nCPU % of one core over the window:')
    for k, v in cpu.items():
        print(f'  {k:22s} {v:6.1f}')
    if composed:
        print("  hb50_stack by thread (the loop threads carry their node's name):")
        for name, v in sorted(per_thread.items(), key=lambda kv: -kv[1]):
            if v >= 0.1:
                print(f'    {name:20s} {v:6.1f}')
        # Per node: its loop thread + an equal share of the shared threads (executor, DDS).
        loops = {n: per_thread.get(n, 0.0) for n in ('bridge_node', 'control_node')}
        shared = sum(per_thread.values()) - sum(loops.values())
        summary['cpu'] = {n: v + shared / 2.0 for n, v in loops.items()}
        summary['cpu_total'] = cpu['hb50_stack']
    else:
        summary['cpu'] = {n: cpu[n] for n in ('bridge_node', 'control_node')}
    summary['stalls'] = window
    res = probe['results']
    summary['cmd_p99'] = pct(res, 99) if res else float('nan')
    if res:
        print(f'\ncommand -> applied (publish -> stamp of first BridgeData showing it), '
              f'{len(res)} samples: p50 {pct(res, 50):.3f} ms, p99 {pct(res, 99):.3f} ms, '
              f'max {max(res):.3f} ms')
    else:
        print('\ncommand -> applied: no sample (no control_node command seen?)')
    return summary


def thread_cpu(pid: int) -> Dict[str, float]:
    """{thread name: CPU seconds} of a process (threads of one name summed)."""
    out: Dict[str, float] = {}
    for tid in os.listdir(f'/proc/{pid}/task'):
        try:
            with open(f'/proc/{pid}/task/{tid}/stat') as f:
                text = f.read()
        except OSError:
            continue
        name = text[text.index('(') + 1:text.rindex(')')]
        fields = text.rsplit(')', 1)[1].split()
        out[name] = out.get(name, 0.0) + (int(fields[11]) + int(fields[12])) / os.sysconf(
            'SC_CLK_TCK')
    return out


class StallDetector:
    """
    A thread that sleeps 1 ms at a time and records every oversleep > 2 ms.

    Such an oversleep means nothing in this process could run: on this VM, a stall of the
    whole machine (or CPU starvation). Intervals are in time.time() seconds, the clock of the
    header stamps.
    """

    SLEEP = 0.001
    THRESHOLD = 0.002

    def __init__(self) -> None:
        self.intervals: List[Stall] = []
        self._mark = 0
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, daemon=True)
        self._thread.start()

    def _run(self) -> None:
        last = time.time()
        while not self._stop.is_set():
            time.sleep(self.SLEEP)
            now = time.time()
            if now - last - self.SLEEP > self.THRESHOLD:
                self.intervals.append((last, now))
            last = now

    def mark(self) -> None:
        self._mark = len(self.intervals)

    def since_mark(self) -> List[Stall]:
        return list(self.intervals[self._mark:])

    def stop(self) -> None:
        self._stop.set()
        self._thread.join(1.0)


def stall_gaps(stamps: npt.NDArray[np.floating[Any]], period: float,
               stalls: Sequence[Stall]) -> int:
    """Count the missing periods between stamps whose gap overlaps a detected stall."""
    count = 0
    for start, end in zip(stamps[:-1], stamps[1:]):
        missing = int(max(round((end - start) / period) - 1, 0))
        if missing and any(a <= end + period and b >= start - period for a, b in stalls):
            count += missing
    return count


def floor_child(duration: float) -> int:
    """Run the floor: a bare rclpy node publishing BridgeData at 500 Hz (timer, EventsExecutor)."""
    import rclpy
    from hb50_commons.msg import BridgeData
    from rclpy.experimental import EventsExecutor

    from hb50_nodes import qos, topics as table
    hb50 = table.absolute()
    rclpy.init()
    node = rclpy.create_node('hb50_floor')
    pub = node.create_publisher(BridgeData, hb50.BRIDGE_DATA + '_floor', qos.MAB_RT)
    msg = BridgeData()
    msg.joint_name = [f'j{i}' for i in range(12)]
    msg.joint_position = msg.joint_velocity = msg.joint_effort = [0.0] * 12
    msg.joint_temperature, msg.joint_status = [25] * 12, [0] * 12

    def tick() -> None:
        ns = time.time_ns()
        msg.header.stamp.sec, msg.header.stamp.nanosec = divmod(ns, 1_000_000_000)
        pub.publish(msg)
    node.create_timer(0.002, tick)
    executor = EventsExecutor()
    executor.add_node(node)
    spin_then_close(executor, node, until(duration), 0.1)
    return 0


def measure_floor(duration: float) -> float:
    """CPU % of one core of the floor process over `duration` s (after 2 s of start-up)."""
    proc = subprocess.Popen([sys.executable, os.path.abspath(__file__), '--floor-child',
                             '--duration', str(duration + 2.0)])
    try:
        time.sleep(2.0)
        c0, t0 = cpu_seconds(proc.pid), time.monotonic()
        time.sleep(duration)
        return 100.0 * (cpu_seconds(proc.pid) - c0) / (time.monotonic() - t0)
    finally:
        proc.wait(30)


TARGET_CPU = 10.0       # % of one core per 500 Hz node (issue 12)
TARGET_RATIO = 3.0      # x the floor
TARGET_JITTER = 0.1     # ms, p99 period jitter
TARGET_CMD = 3.0        # ms, command -> applied p99


def main() -> int:
    args = parse()
    if args.floor_child:
        return floor_child(args.duration)
    os.environ['ROS_DOMAIN_ID'] = str(args.domain if args.domain is not None
                                      else allocate_domain())
    os.environ.setdefault('ROS_AUTOMATIC_DISCOVERY_RANGE', 'LOCALHOST')
    os.environ['HB50_EXECUTOR'] = args.executor
    modes = ['composed'] if args.composed else [m.strip() for m in args.modes.split(',')]
    stalls = StallDetector()
    results: Dict[str, Summary] = {}
    for mode in modes:
        if mode not in ('3proc', 'composed'):
            print(f'error: unknown mode {mode!r} (3proc, composed)', file=sys.stderr)
            return 2
        results[mode] = run_stack(args, mode == 'composed', stalls)
    floor = measure_floor(args.duration)
    stalls.stop()
    with open('/proc/loadavg') as f:
        load = ' '.join(f.read().split()[:3])
    print(f'\n=== issue 12 targets (load average at the end: {load}) ===')
    print(f'floor: bare rclpy 500 Hz BridgeData publisher (timer, EventsExecutor), same run: '
          f'{floor:.1f} % of one core')
    print(f'{"mode":9s} {"node":13s} {"CPU %":>6s} {"target":>7s} {"floor":>6s} {"ratio":>6s} '
          f'{"(<=3x)":>6s}')
    for mode, r in results.items():
        for node_name, v in r['cpu'].items():
            ratio = v / floor if floor > 0 else float('nan')
            print(f'{mode:9s} {node_name:13s} {v:6.1f} {"<= 10":>7s} {floor:6.1f} {ratio:6.1f} '
                  f'{"ok" if v <= TARGET_CPU else "MISSED":>6s}')
        if 'cpu_total' in r:
            print(f'{mode:9s} {"(process)":13s} {r["cpu_total"]:6.1f}')
    print(f'\n{"mode":9s} {"topic":20s} {"rate Hz":>8s} {"jit p99 ms":>10s} {"target":>7s} '
          f'{"gaps":>5s} {"in stalls":>9s} {"quiet":>5s}')
    for mode, r in results.items():
        for topic, t in r['topics'].items():
            print(f'{mode:9s} {topic:20s} {t["rate"]:8.2f} {t["jit_p99"]:10.3f} '
                  f'{"<= 0.1":>7s} {t["gaps"]:5d} {t["gaps_in_stalls"]:9d} '
                  f'{t["gaps"] - t["gaps_in_stalls"]:5d}')
        n_stalls = len(r['stalls'])
        longest = max((b - a for a, b in r['stalls']), default=0.0) * 1e3
        print(f'{mode:9s} stall detector: {n_stalls} stalls > {StallDetector.THRESHOLD * 1e3:g}'
              f' ms in the window, longest {longest:.1f} ms')
    for mode, r in results.items():
        print(f'{mode:9s} command -> applied p99 {r["cmd_p99"]:.3f} ms (target <= '
              f'{TARGET_CMD:g} ms)')
    return 0


if __name__ == '__main__':
    sys.exit(main())
