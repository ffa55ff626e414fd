#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""
Soak benchmark of the simulated HB50 stack (a script, not a test).

Runs bridge_node, control_node and heartbeat_monitor (three processes) for --duration seconds
(default 10 minutes) under a repeating workload: trot forward, turn, stand (velocity
commands), a custom source taking priority for 2 s, and one invalid JointCommand a second
(rejection and report path). At 10 %, 50 % and 100 % of the run (1, 5 and 10 min by default)
it samples each node's RSS, open file descriptors and threads, and prints them beside the
target (flat: no growth after the first sample) and a floor measured in the same run: an idle
rclpy node (EventsExecutor, one 2 Hz timer) sampled at the same moments, whose drift is what
"flat" can mean on this machine. It also counts the stack's safe-damping and STALE events
(0 expected in steady operation) and checks every process is still alive at the end.

Usage: hb50_soak.py [--duration 600] [--domain D]
Needs the workspace sourced (hb50_nodes installed). The domain defaults to one from
workspace_testing's allocator (held for the run); each process's output is written to the
logs directory when it has stopped.
"""

import argparse
import os
import signal
import sys
import tempfile
import time
from typing import Any, Dict, List, Optional, Sequence, Tuple

from workspace_testing import allocate_domain, executable, localhost_env, start, stop, Stopped

NODES = ('bridge_node', 'control_node', 'heartbeat_monitor')
CHECKPOINTS = (0.1, 0.5, 1.0)       # fractions of the run: 1/5/10 min of the default
RSS_TARGET_MB = 5.0                 # growth allowed between the first and the last sample
FLOOR_NODE = """
import rclpy
from rclpy.experimental import EventsExecutor
rclpy.init()
node = rclpy.create_node('hb50_soak_floor')
node.create_timer(0.5, lambda: None)
executor = EventsExecutor()
executor.add_node(node)
try:
    while rclpy.ok():
        executor.spin_once(timeout_sec=0.1)
except KeyboardInterrupt:
    pass
"""

#: (RSS MB, open fds, threads) of a process.
Sample = Tuple[float, int, int]


def parse() -> argparse.Namespace:
    p = argparse.ArgumentParser(description=__doc__.strip().split('\n')[0])
    p.add_argument('--duration', type=float, default=600.0, help='length of the soak (s)')
    p.add_argument('--warmup', type=float, default=8.0, help='stand-up time before the soak')
    p.add_argument('--domain', type=int, default=None,
                   help='ROS_DOMAIN_ID (default: a free one from workspace_testing)')
    return p.parse_args()


def sample(pid: int) -> Sample:
    """Return (RSS MB, open fds, threads) of a process."""
    rss: Optional[float] = None
    threads: Optional[int] = None
    with open(f'/proc/{pid}/status') as f:
        for line in f:
            if line.startswith('VmRSS:'):
                rss = int(line.split()[1]) / 1024.0
            elif line.startswith('Threads:'):
                threads = int(line.split()[1])
    assert rss is not None and threads is not None     # a live process has both lines
    return rss, len(os.listdir(f'/proc/{pid}/fd')), threads


class Workload:
    """Velocity commands, a custom source and invalid commands, on a 30 s cycle."""

    def __init__(self) -> None:
        import rclpy
        from geometry_msgs.msg import Twist
        from hb50_commons.msg import JointCommand, Status
        from hb50_nodes import qos, topics as table
        from hb50_nodes.control_core import ControlConfig, ControlCore
        from hb50_nodes.kinematics import LegGeometry
        from hb50_nodes.layout import JOINT_NAMES
        from rclpy.experimental import EventsExecutor

        rclpy.init()
        self.rclpy = rclpy
        hb50 = table.absolute()     # the topics' names in /hb50
        self.node = rclpy.create_node('hb50_soak_workload')
        self.twist_pub = self.node.create_publisher(Twist, hb50.VELOCITY_COMMAND, qos.MAB_RT)
        self.cmd_pub = self.node.create_publisher(JointCommand, hb50.JOINT_COMMAND, qos.MAB_RT)
        self.events = {'safe damping': 0, 'STALE': 0, 'rejected': 0, 'switched': 0}
        self.node.create_subscription(Status, hb50.STATUS, self.on_status, qos.RELIABLE)
        self.Twist = Twist
        stand = ControlCore(ControlConfig(), LegGeometry()).stand_pose()
        n = len(JOINT_NAMES)
        self.custom = JointCommand(source_node='soak_ctrl', name=list(JOINT_NAMES),
                                   kp=[60.0] * n, ki=[0.0] * n, kd=[2.0] * n,
                                   t_pos=[float(v) for v in stand], t_vel=[0.0] * n,
                                   t_trq=[0.0] * n, brake=[False] * n)
        self.invalid = JointCommand(source_node='soak_bad', name=list(JOINT_NAMES),
                                    kp=[60.0] * n, ki=[0.0] * n, kd=[2.0] * n,
                                    t_pos=[1e30] * n, t_vel=[0.0] * n, t_trq=[0.0] * n,
                                    brake=[False] * n)
        self.executor = EventsExecutor()
        self.executor.add_node(self.node)
        self.last_invalid = 0.0

    def on_status(self, msg: Any) -> None:
        if msg.level[0] == 4:
            self.events['STALE'] += 1
        for key in ('safe damping', 'rejected', 'switched'):
            if key in msg.status:
                self.events[key] += 1

    def step(self, t: float) -> None:
        """Publish what phase t (s since start) of the 30 s cycle asks for, then spin."""
        phase = t % 30.0
        twist = self.Twist()
        if phase < 10.0:
            twist.linear.x = 0.6
        elif phase < 15.0:
            twist.angular.z = 0.5
        elif 20.0 <= phase < 22.0:
            self.cmd_pub.publish(self.custom)      # 20 Hz: takes priority, then hands back
        if phase < 15.0:
            self.twist_pub.publish(twist)
        if t - self.last_invalid >= 1.0:
            self.last_invalid = t
            self.cmd_pub.publish(self.invalid)
        self.executor.spin_once(timeout_sec=0.05)

    def close(self) -> None:
        self.executor.shutdown(timeout_sec=1.0)
        self.node.destroy_node()
        self.rclpy.try_shutdown()


def main() -> None:
    args = parse()
    domain = args.domain if args.domain is not None else allocate_domain()
    os.environ.update(localhost_env(domain, {}))     # the nodes and this process's rclpy
    logs = tempfile.mkdtemp(prefix='hb50_soak_')
    procs = {name: start([executable('hb50_nodes', name)]) for name in NODES}
    procs['floor: idle rclpy node'] = start([sys.executable, '-c', FLOOR_NODE])
    workload = Workload()
    samples: Dict[str, List[Optional[Sample]]] = {name: [] for name in procs}
    times = [args.warmup + f * args.duration for f in CHECKPOINTS]
    print(f'HB50 soak: {args.duration:.0f} s after {args.warmup:.0f} s of warm-up, samples at '
          + ', '.join(f'{t - args.warmup:.0f} s' for t in times) + f'; logs in {logs}',
          flush=True)
    began = time.monotonic()
    try:
        for checkpoint in times:
            while time.monotonic() - began < checkpoint:
                workload.step(time.monotonic() - began)
            for name, proc in procs.items():
                samples[name].append(sample(proc.pid) if proc.poll() is None else None)
            print(f'  sampled at {checkpoint - args.warmup:.0f} s', flush=True)
        alive = {name: proc.poll() is None for name, proc in procs.items()}
    finally:
        workload.close()
        stopped = {name: stop(proc) for name, proc in procs.items()}
        for name, result in stopped.items():
            log = 'floor' if name.startswith('floor') else name
            with open(os.path.join(logs, f'{log}.log'), 'w') as f:
                f.write(result.output or '')
    report(args, times, samples, alive, workload.events, stopped)


def clean_exit(result: Stopped) -> bool:
    """Tell whether it exited 0 on the first SIGINT (not after SIGTERM/SIGKILL)."""
    return (result.returncode, result.signal) == (0, signal.SIGINT)


def exit_text(result: Stopped) -> str:
    sent = signal.Signals(result.signal).name if result.signal else 'none'
    return f'{result.returncode} ({sent})'


def report(args: argparse.Namespace, times: Sequence[float],
           samples: Dict[str, List[Optional[Sample]]], alive: Dict[str, bool],
           events: Dict[str, int], stopped: Dict[str, Stopped]) -> None:
    heads = [f'{t - args.warmup:.0f} s' for t in times]
    print()
    print(f'{"process":24s} ' + ' '.join(f'{h + " RSS MB/fds/thr":>24s}' for h in heads)
          + f' {"RSS growth":>11s} {"fds":>4s}  alive exit')
    growth: Dict[str, Optional[Tuple[float, int]]] = {}
    for name, rows in samples.items():
        cells = [f'{"-":>24s}' if r is None else f'{r[0]:12.1f}/{r[1]:4d}/{r[2]:4d}'
                 for r in rows]
        ok = all(r is not None for r in rows)
        first, last = rows[0], rows[-1]
        growth[name] = ((last[0] - first[0], last[1] - first[1])
                        if ok and first is not None and last is not None else None)
        g = growth[name]
        print(f'{name:24s} ' + ' '.join(f'{c:>24s}' for c in cells)
              + (f' {g[0]:+10.1f}  {g[1]:+4d}' if g else f' {"-":>11s} {"-":>4s}')
              + f'  {"yes" if alive[name] else "NO":5s} {exit_text(stopped[name])}')
    floor = growth.get('floor: idle rclpy node')
    print()
    print(f'target: flat from the first sample on: RSS growth <= {RSS_TARGET_MB:.0f} MB, '
          f'fds +0, every node alive and exiting 0 on SIGINT')
    if floor:
        print(f'floor (idle rclpy node, same run): RSS growth {floor[0]:+.1f} MB, '
              f'fds {floor[1]:+d}')
    for name in NODES:
        g = growth[name]
        verdict = ('flat' if g and g[0] <= RSS_TARGET_MB and g[1] <= 0 and alive[name]
                   and clean_exit(stopped[name]) else 'NOT FLAT / FAILED')
        shown = f'RSS {g[0]:+.1f} MB, fds {g[1]:+d}' if g else 'not sampled'
        print(f'  {name:18s} {shown:28s} -> {verdict}')
    print(f'events during the soak: {events["safe damping"]} safe damping, {events["STALE"]} '
          f'STALE (0 expected), {events["switched"]} source switches, {events["rejected"]} '
          f'rejection reports (1 invalid command/s, reports rate-limited)')


if __name__ == '__main__':
    main()
