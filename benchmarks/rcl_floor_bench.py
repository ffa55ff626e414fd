#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""
Issue 40's floors, in one run: how a 500 Hz node waits and takes, in C on rcl and in rclpy.

The node under test is the same in every row: 3 publishers of a pre-serialized 448-byte
hb50_commons BridgeData (12 joints) at 500 Hz, best effort depth 1 (mabRT), plus 1 raw
JointCommand subscription fed at 500 Hz (524-byte 12-joint commands) by another process,
the C floor itself with one publisher (the feeder). Only how the loop waits and takes
differs:

- c: `rcl_floor` (package benchmarks/rcl_floor, built by colcon): an absolute-deadline loop,
  an rcl wait set with the time to the next deadline as timeout, rcl_take_serialized_message;
- take: rclpy, no executor: the tick publishes, then takes every waiting sample with
  `subscription.handle.take_message`, then sleeps to the next deadline;
- events: rclpy EventsExecutor, `spin_once(timeout_sec=until the deadline)` until it;
- single: rclpy SingleThreadedExecutor, the same loop.

Each row's process runs --warmup s (start-up left out), then its CPU % of one core
(/proc utime + stime) is measured for --duration s; rows alternate --repeat times and the
table shows medians, each beside the C floor, with the tick rate and taken messages/s each
process reported at exit, the load average, the date and the machine.

    python3 benchmarks/rcl_floor_bench.py [--duration 10] [--warmup 4] [--repeat 3]
Needs the workspace built and sourced (the package rcl_floor included).
"""

import argparse
import os
import re
from statistics import median
import sys
import tempfile
import time
from typing import Any, Dict, List, Optional, Sequence, TypedDict

from _bench_common import machine, select_cases, set_up_domain, utc_minute
from _cpu_sampling import CpuWindow, load
import workspace_testing as wt

RATE = 500.0
PUBLISHERS = 3
PUB_TOPIC = 'rcl_floor_bench/out'     # the C floor names them _0, _1, _2
SUB_TOPIC = 'rcl_floor_bench/in'
CASES = {
    'c': 'C on rcl (rmw_fastrtps, an rcl wait set with the deadline as timeout)',
    'take': 'rclpy: the tick takes every waiting sample (handle.take_message), then '
            'sleeps to the deadline; no executor',
    'events': 'rclpy EventsExecutor, spin_once(timeout=until the deadline)',
    'single': 'rclpy SingleThreadedExecutor, same loop',
}
COUNTS = re.compile(r'([\d.]+) s, \d+ ticks \(([\d.]+) Hz\).*, taken (\d+)')


class Row(TypedDict):
    """The figures of one measured row (measure_row)."""

    cpu: float
    others: List[float]
    hz: float
    taken_per_s: float
    load: str


def write_messages(folder: str) -> List[str]:
    """Write the 448-byte BridgeData and 524-byte JointCommand the rows send; return paths."""
    from hb50_commons.msg import BridgeData, JointCommand
    from rclpy.serialization import serialize_message
    names = [f'{leg}_j{j}' for leg in ('fr', 'fl', 'rl', 'rr') for j in range(3)]
    data = BridgeData()
    data.header.frame_id = 'imu'
    data.joint_name = names
    data.joint_position = [0.1] * 12
    data.joint_velocity = [0.0] * 12
    data.joint_effort = [0.0] * 12
    data.joint_temperature = [30] * 12
    data.joint_status = [0] * 12
    command = JointCommand(source_node='control_node', name=names, brake=[False] * 12)
    command.header.frame_id = 'base_link'
    for field in ('kp', 'ki', 'kd', 't_pos', 't_vel', 't_trq'):
        setattr(command, field, [0.0] * 12)
    paths: List[str] = []
    for name, msg in (('bridge_data.cdr', data), ('joint_command.cdr', command)):
        path = os.path.join(folder, name)
        with open(path, 'wb') as f:
            f.write(serialize_message(msg))
        paths.append(path)
    return paths


# --- the rclpy rows (one process each: this script with --node MODE) --------------------------

def run_rclpy_node(mode: str, data_path: str) -> int:
    """Run the rclpy form of the node until SIGINT/SIGTERM; print its counts like rcl_floor."""
    from node_runtime import stop as stop_request
    stop_request.install()          # SIGINT/SIGTERM only set a flag the loop reads
    import rclpy
    from rclpy.qos import DurabilityPolicy, HistoryPolicy, QoSProfile, ReliabilityPolicy
    from rclpy.signals import SignalHandlerOptions
    from hb50_commons.msg import BridgeData, JointCommand

    with open(data_path, 'rb') as f:
        data = f.read()
    rclpy.init(signal_handler_options=SignalHandlerOptions.NO)
    qos = QoSProfile(depth=1, history=HistoryPolicy.KEEP_LAST,
                     reliability=ReliabilityPolicy.BEST_EFFORT,
                     durability=DurabilityPolicy.VOLATILE)
    node = rclpy.create_node(f'rclpy_floor_{mode}')
    pubs = [node.create_publisher(BridgeData, f'{PUB_TOPIC}_{i}', qos)
            for i in range(PUBLISHERS)]
    taken = [0]

    def on_raw(_raw: bytes) -> None:
        taken[0] += 1
    sub = node.create_subscription(JointCommand, SUB_TOPIC, on_raw, qos, raw=True)
    executor: Any = None
    if mode == 'events':
        from rclpy.experimental import EventsExecutor
        executor = EventsExecutor()
    elif mode == 'single':
        from rclpy.executors import SingleThreadedExecutor
        executor = SingleThreadedExecutor()
    if executor is not None:
        executor.add_node(node)
    handle = sub.handle

    def take_all() -> None:
        while handle.take_message(JointCommand, True) is not None:
            taken[0] += 1
    period = 1.0 / RATE
    ticks = late = 0
    print(f'rclpy_floor ({mode}): running:', flush=True)
    started = time.monotonic()
    deadline = started + period
    try:
        while not stop_request.requested():
            now = time.monotonic()
            if now >= deadline:
                for pub in pubs:
                    pub.publish(data)
                if executor is None:
                    take_all()
                ticks += 1
                deadline += period
                if now >= deadline:     # more than a period behind: skip, do not burst
                    late += 1
                    deadline = now + period
                continue
            if executor is None:
                time.sleep(deadline - now)
            else:
                executor.spin_once(timeout_sec=deadline - now)
    finally:
        elapsed = time.monotonic() - started
        print(f'rclpy_floor ({mode}): {elapsed:.3f} s, {ticks} ticks '
              f'({ticks / elapsed:.1f} Hz), {late} late, published {ticks * PUBLISHERS}, '
              f'taken {taken[0]}', flush=True)
        if executor is not None:
            executor.shutdown(timeout_sec=1.0)
        node.destroy_node()
        rclpy.try_shutdown()
    return 0


# --- the measurement -----------------------------------------------------------------------

def c_floor(data_path: str, *extra: str) -> List[str]:
    return [wt.executable('rcl_floor', 'rcl_floor'), '--publishers', str(PUBLISHERS),
            '--pub-topic', PUB_TOPIC, '--pub-type', 'hb50_commons/msg/BridgeData',
            '--data', data_path, '--subscriptions', '1', '--sub-topic', SUB_TOPIC,
            '--sub-type', 'hb50_commons/msg/JointCommand', '--rate', f'{RATE:g}', *extra]


def feeder(command_path: str) -> List[str]:
    """Return the feeder: the C floor with one JointCommand publisher at 500 Hz, no input."""
    return [wt.executable('rcl_floor', 'rcl_floor'), '--name', 'rcl_floor_feeder',
            '--publishers', '1', '--pub-topic', SUB_TOPIC,
            '--pub-type', 'hb50_commons/msg/JointCommand', '--data', command_path,
            '--subscriptions', '0', '--rate', f'{RATE:g}']


def measure_row(cmd: Sequence[str], args: argparse.Namespace,
                others: Sequence[wt.NodeProcess]) -> Row:
    """Start `cmd`, skip --warmup s, measure its CPU (and `others`'); return the figures."""
    proc = wt.start(cmd)
    try:
        if not proc.wait_for_output('running:', 30, period=0.01):
            raise RuntimeError(f'{cmd[0]} did not start: {proc.output()[-500:]}')
        time.sleep(args.warmup)
        before = load()
        window = CpuWindow([proc.pid] + [p.pid for p in others])
        time.sleep(args.duration)
        cpus = window.percent()
        after = load()
    finally:
        stopped = wt.stop(proc)
    if stopped.returncode != 0:
        raise RuntimeError(f'{cmd[0]} exited {stopped.returncode}: '
                           f'{(stopped.output or "")[-500:]}')
    counts = COUNTS.search(stopped.output or '')
    elapsed, hz, taken = (float(counts.group(1)), float(counts.group(2)),
                          int(counts.group(3))) if counts else (1.0, 0.0, 0)
    return {'cpu': cpus[0], 'others': cpus[1:], 'hz': hz, 'taken_per_s': taken / elapsed,
            'load': f'{before}->{after}'}


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__.strip().split('\n')[0])
    p.add_argument('--duration', type=float, default=10.0, help='s per CPU measurement')
    p.add_argument('--warmup', type=float, default=4.0, help='s after start-up, not measured')
    p.add_argument('--repeat', type=int, default=3, help='rounds of every row (medians)')
    p.add_argument('--cases', default=','.join(CASES),
                   help=f'comma-separated, of: {", ".join(CASES)}')
    p.add_argument('--no-feed', action='store_true',
                   help='no JointCommand feeder: the subscription stays idle')
    p.add_argument('--domain', type=int, default=None,
                   help='ROS_DOMAIN_ID (default: a free one from workspace_testing)')
    p.add_argument('--node', choices=('take', 'events', 'single'), help=argparse.SUPPRESS)
    p.add_argument('--data', help=argparse.SUPPRESS)
    args = p.parse_args()
    if args.node:
        return run_rclpy_node(args.node, args.data)
    cases = select_cases(p, args.cases, CASES)
    domain = set_up_domain(args.domain)
    print(f'issue 40 floors: {utc_minute()}; {machine()}; '
          f'ROS_DISTRO={os.environ.get("ROS_DISTRO")}, '
          f'{os.environ.get("RMW_IMPLEMENTATION", "rmw_fastrtps_cpp (default)")}; '
          f'ROS_DOMAIN_ID={domain}')
    print(f'node: {PUBLISHERS} publishers of 448-byte BridgeData at {RATE:g} Hz + 1 raw '
          f'JointCommand subscription, {"idle" if args.no_feed else "fed at 500 Hz"}; '
          f'{args.duration:g} s each after {args.warmup:g} s, {args.repeat} rounds; '
          f'load average {load(None)}', flush=True)
    results: Dict[str, List[Row]] = {c: [] for c in cases}
    feeder_cpu: List[float] = []
    with tempfile.TemporaryDirectory(prefix='rcl_floor_bench_') as tmp:
        data_path, command_path = write_messages(tmp)
        commands = {'c': c_floor(data_path)}
        for mode in ('take', 'events', 'single'):
            commands[mode] = [sys.executable, os.path.abspath(__file__), '--node', mode,
                              '--data', data_path]
        feed: Optional[wt.NodeProcess] = None
        if not args.no_feed:
            feed = wt.start(feeder(command_path))
            if not feed.wait_for_output('running:', 30, period=0.01):
                raise RuntimeError(f'feeder did not start: {feed.output()[-500:]}')
        try:
            for _ in range(args.repeat):
                for case in cases:
                    row = measure_row(commands[case], args, [feed] if feed else [])
                    results[case].append(row)
                    feeder_cpu += row['others']
                    time.sleep(0.5)
        finally:
            if feed is not None:
                wt.stop(feed)
    c_cpu = median(r['cpu'] for r in results['c']) if results.get('c') else None
    print()
    print('| how the node waits and takes | CPU % of one core (median; runs) | x C floor '
          '| tick Hz | taken/s (process lifetime) | load 1 min |')
    print('|---|---|---|---|---|---|')
    for case in cases:
        rows = results[case]
        cpu = median(r['cpu'] for r in rows)
        runs = ', '.join(f'{r["cpu"]:.1f}' for r in rows)
        ratio = f'{cpu / c_cpu:.1f}x' if c_cpu else '-'
        print(f'| {CASES[case]} | {cpu:.1f} % ({runs}) | {ratio} '
              f'| {median(r["hz"] for r in rows):.1f} '
              f'| {median(r["taken_per_s"] for r in rows):.0f} '
              f'| {"; ".join(r["load"] for r in rows)} |')
    if feeder_cpu:
        print(f'\nfeeder (rcl_floor, 1 JointCommand publisher at 500 Hz): '
              f'{median(feeder_cpu):.1f} % median')
    print(f'load average after: {load(None)}')
    return 0


if __name__ == '__main__':
    sys.exit(main())
