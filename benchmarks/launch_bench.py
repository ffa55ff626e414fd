#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""
Benchmark of `ros2 launch` (issue 36): start-up, its own CPU, output passing through.

(a) Start-up: `ros2 launch hb50_nodes hb50_sim.launch.py`, the time from the command until
    its processes run, twice: until the three node processes exist (their command lines
    seen in /proc under the command), and until the stack works (the first
    /hb50/bridge_data and the first heartbeat of each of the three nodes at a subscriber of
    this process, which is up before the command). Each beside two floors measured the same
    way: `ros2 run` of the same three executables from a shell script, and the three
    executables started directly by the shell script. Alternating runs, medians; target
    <= 1.5 s.
(b) CPU of launch's own process (`ros2 launch` and any helper of it, the nodes left out)
    while the HB50 stack runs, idle, output='screen', beside the floor: the shell script of
    (a) waiting for its three `ros2 run`. Target <= 1 % of a core.
(c) A child that prints 500 lines/s (ExecuteProcess, output='screen') for --lines-seconds
    s: lines received on launch's stdout against lines printed, and the child's own timing
    (its run time and its longest print) beside the same child printing into a pipe that
    this process drains (the floor). Target: every line, the child no later than the floor
    by more than 0.1 s.

Each figure is printed beside its target and floor, with the load average, date and
machine. Usage: launch_bench.py [--runs 3] [--cpu-seconds 20] [--lines-seconds 5]
[--domain N]. Needs the workspace sourced (hb50_nodes, ros2cli_py, workspace_testing).
"""

import argparse
import importlib
import os
import platform
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from typing import Any, Dict, List, Optional, Sequence, Set

from _bench_common import utc_minute
from _cpu_sampling import load
from ament_index_python.packages import get_package_prefix, get_package_share_directory
import workspace_testing as wt

NODES = ('bridge_node', 'control_node', 'heartbeat_monitor')
START_TARGET_S = 1.5
CPU_TARGET = 1.0             # % of one core
LINE_RATE = 500              # lines/s
LATE_TARGET_S = 0.1          # the child's run time beyond the floor's
STARTED = re.compile(r'process started with pid \[(\d+)\]')

PRINTER = """
import sys, time
rate, seconds = float(sys.argv[1]), float(sys.argv[2])
n = int(rate * seconds)
start = time.monotonic()
longest = 0.0
for i in range(n):
    delay = start + i / rate - time.monotonic()
    if delay > 0:
        time.sleep(delay)
    t = time.monotonic()
    print(f'bench line {i}', flush=True)
    longest = max(longest, time.monotonic() - t)
print(f'printer done: {n} lines in {time.monotonic() - start:.4f} s, '
      f'longest print {longest * 1000:.3f} ms', flush=True)
"""
DONE = re.compile(r'printer done: (\d+) lines in ([\d.]+) s, longest print ([\d.]+) ms')
LAUNCH_PRINTER = """
import sys
from launch import LaunchDescription
from launch.actions import ExecuteProcess


def generate_launch_description():
    return LaunchDescription([ExecuteProcess(
        cmd=[sys.executable, '-c', {printer!r}, '{rate}', '{seconds}'], name='printer',
        output='screen')])
"""


class FirstMessages:
    """Times (monotonic) of the first bridge_data and of each node's first heartbeat."""

    def __init__(self, domain: int) -> None:
        """Subscribe in a context of its own on `domain` and spin in a thread."""
        import rclpy
        from rclpy.executors import SingleThreadedExecutor
        from rclpy.qos import qos_profile_sensor_data
        msgs: Any = importlib.import_module('hb50_commons.msg')
        self.rclpy: Any = rclpy
        self.context: Any = rclpy.Context()
        rclpy.init(context=self.context, domain_id=domain)
        self.node: Any = rclpy.create_node('launch_bench', context=self.context)
        self.executor: Any = SingleThreadedExecutor(context=self.context)
        self.executor.add_node(self.node)
        self.lock = threading.Lock()
        self.first: Dict[str, float] = {}
        self.node.create_subscription(msgs.BridgeData, '/hb50/bridge_data', self.on_data,
                                      qos_profile_sensor_data)
        self.node.create_subscription(msgs.Status, '/hb50/heartbeat', self.on_beat, 10)
        self.thread = threading.Thread(target=self.spin, daemon=True)
        self.thread.start()

    def spin(self) -> None:
        """Spin until the context shuts down."""
        try:
            while self.context.ok():
                self.executor.spin_once(timeout_sec=0.05)
        except Exception:   # the context shut down under spin_once
            pass

    def on_data(self, msg: Any) -> None:
        """Record the first bridge_data."""
        with self.lock:
            self.first.setdefault('bridge_data', time.monotonic())

    def on_beat(self, msg: Any) -> None:
        """Record each node's first heartbeat."""
        now = time.monotonic()
        with self.lock:
            for name in NODES:
                if name in msg.reporting_node:
                    self.first.setdefault(name, now)

    def reset(self) -> None:
        """Forget what arrived so far."""
        with self.lock:
            self.first.clear()

    def all_by(self, timeout: float) -> Optional[float]:
        """Return when the last of the first messages arrived, None after `timeout` s."""
        keys = {'bridge_data', *NODES}
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            with self.lock:
                if keys <= set(self.first):
                    return max(self.first[k] for k in keys)
            time.sleep(0.01)
        return None

    def close(self) -> None:
        """Destroy the node and the context."""
        self.context.try_shutdown()
        self.thread.join(5)
        self.executor.shutdown()
        self.node.destroy_node()


def shell_script(use_ros2_run: bool) -> str:
    """Start the three executables (each with the shipped parameters); SIGINT stops them."""
    params = os.path.join(get_package_share_directory('hb50_nodes'), 'config', 'hb50.yaml')
    lib = os.path.join(get_package_prefix('hb50_nodes'), 'lib', 'hb50_nodes')
    ros2 = shutil.which('ros2') or 'ros2'
    lines = []
    for i, name in enumerate(NODES):
        command = f'{ros2} run hb50_nodes {name}' if use_ros2_run else f'{lib}/{name}'
        lines.append(f'{command} --ros-args --params-file {params} & p{i}=$!')
    lines.append("trap 'kill -INT $p0 $p1 $p2 2>/dev/null; wait; exit 0' INT TERM")
    lines.append('wait')
    return '\n'.join(lines) + '\n'


def descendants(pid: int) -> Set[int]:
    """Every process below `pid` (from /proc)."""
    children: Dict[int, List[int]] = {}
    for entry in os.listdir('/proc'):
        if entry.isdigit():
            try:
                with open(f'/proc/{entry}/stat') as f:
                    parent = int(f.read().rsplit(')', 1)[1].split()[1])
            except (OSError, IndexError, ValueError):
                continue
            children.setdefault(parent, []).append(int(entry))
    found: Set[int] = set()
    todo = [pid]
    while todo:
        for child in children.get(todo.pop(), []):
            if child not in found:
                found.add(child)
                todo.append(child)
    return found


def cpu_seconds(pids: Sequence[int]) -> float:
    """User + system CPU seconds the processes have used so far (gone ones count 0)."""
    total = 0.0
    for pid in pids:
        try:
            with open(f'/proc/{pid}/stat') as f:
                fields = f.read().rsplit(')', 1)[1].split()
        except OSError:
            continue
        total += (int(fields[11]) + int(fields[12])) / os.sysconf('SC_CLK_TCK')
    return total


def spawned_by(pid: int, timeout: float) -> Optional[float]:
    """Return when a process of each node's executable runs under `pid`, None on timeout."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        seen = set()
        for child in descendants(pid):
            try:
                with open(f'/proc/{child}/cmdline', 'rb') as f:
                    argv = f.read().split(b'\0')
            except OSError:
                continue
            for name in NODES:
                if any(arg.endswith(f'/hb50_nodes/{name}'.encode()) for arg in argv):
                    seen.add(name)
        if len(seen) == len(NODES):
            return time.monotonic()
        time.sleep(0.005)
    return None


def own_pids(proc: wt.NodeProcess) -> List[int]:
    """Return the launching process and its helpers (its tree without what it started)."""
    nodes = {int(p) for p in STARTED.findall(proc.output())}
    for pid in list(nodes):
        nodes |= descendants(pid)
    return [proc.pid] + sorted(descendants(proc.pid) - nodes)


def stop(proc: wt.NodeProcess, what: str) -> None:
    """SIGINT; exit if it did not end with exit code 0."""
    stopped = wt.stop(proc, timeout=20)
    if stopped.returncode != 0:
        sys.exit(f'{what}: exit code {stopped.returncode}\n{(stopped.output or "")[-2000:]}')


def start_up(env: Dict[str, str], first: FirstMessages, runs: int,
             cpu_seconds_window: float) -> Dict[str, Any]:
    """Start-up times (a) and, in the last run, the CPU of launch and of the floor (b)."""
    ros2 = shutil.which('ros2') or 'ros2'
    kinds = {'ros2 launch': [ros2, 'launch', 'hb50_nodes', 'hb50_sim.launch.py'],
             'ros2 run x3 (sh)': ['sh', '-c', shell_script(True)],
             'executables x3 (sh)': ['sh', '-c', shell_script(False)]}
    times: Dict[str, List[float]] = {k: [] for k in kinds}
    spawned: Dict[str, List[float]] = {k: [] for k in kinds}
    cpu: Dict[str, float] = {}
    for run in range(runs):
        for kind, argv in kinds.items():
            first.reset()
            time.sleep(0.5)
            t0 = time.monotonic()
            proc = wt.start(argv, env=env)
            try:
                running = spawned_by(proc.pid, 30)
                if running is None:
                    sys.exit(f'{kind}: the node processes did not start\n{proc.output()[-2000:]}')
                spawned[kind].append(running - t0)
                arrived = first.all_by(60)
                if arrived is None:
                    sys.exit(f'{kind}: not every first message arrived\n{proc.output()[-2000:]}')
                times[kind].append(arrived - t0)
                if run == runs - 1 and kind != 'executables x3 (sh)':
                    time.sleep(3.0)     # past start-up
                    # launch and its helpers; the floor: the shell alone
                    pids = own_pids(proc) if kind == 'ros2 launch' else [proc.pid]
                    c0, w0 = cpu_seconds(pids), time.monotonic()
                    time.sleep(cpu_seconds_window)
                    cpu[kind] = 100.0 * (cpu_seconds(pids) - c0) / (time.monotonic() - w0)
            finally:
                stop(proc, kind)
    return {'times': times, 'spawned': spawned, 'cpu': cpu}


def child_timing(text: str) -> Optional[List[float]]:
    """[lines, run time s, longest print ms] from the printer's last line."""
    found = DONE.search(text)
    return [float(v) for v in found.groups()] if found else None


def passes_lines(env: Dict[str, str], seconds: float) -> Dict[str, Any]:
    """(c): the printer under `ros2 launch`, then alone into a drained pipe (the floor)."""
    folder = tempfile.mkdtemp(prefix='launch_bench_')
    path = os.path.join(folder, 'printer.launch.py')
    with open(path, 'w') as f:
        f.write(LAUNCH_PRINTER.format(printer=PRINTER, rate=LINE_RATE, seconds=seconds))
    ros2 = shutil.which('ros2') or 'ros2'
    proc = wt.start([ros2, 'launch', path], env=env)
    pids: List[int] = []
    samples: List[List[float]] = []       # [monotonic, CPU s] while launch runs
    deadline = time.monotonic() + seconds + 60
    while proc.poll() is None and time.monotonic() < deadline:
        if not pids and STARTED.search(proc.output()):
            pids = own_pids(proc)
        if pids:
            sample = [time.monotonic(), cpu_seconds(pids)]
            if proc.poll() is None:     # not yet gone: the figure is complete
                samples.append(sample)
        time.sleep(0.05)
    launch_cpu = 100.0 * (samples[-1][1] - samples[0][1]) / (samples[-1][0] - samples[0][0]) \
        if len(samples) > 1 else float('nan')
    stopped = wt.stop(proc, timeout=20)
    out = stopped.output or ''
    received = len(re.findall(r'^\[printer-\d+\] bench line \d+$', out, re.MULTILINE))
    floor = subprocess.run([sys.executable, '-c', PRINTER, str(LINE_RATE), str(seconds)],
                           capture_output=True, text=True, timeout=seconds + 60)
    return {'received': received, 'child': child_timing(out), 'exit': stopped.returncode,
            'floor': child_timing(floor.stdout), 'launch_cpu': launch_cpu}


def main() -> None:
    """Run (a), (b), (c) and print the figures."""
    parser = argparse.ArgumentParser(description=(__doc__ or '').strip().splitlines()[0])
    parser.add_argument('--runs', type=int, default=3)
    parser.add_argument('--cpu-seconds', type=float, default=20.0)
    parser.add_argument('--lines-seconds', type=float, default=5.0)
    parser.add_argument('--domain', type=int, default=None)
    args = parser.parse_args()
    domain = wt.allocate_domain() if args.domain is None else args.domain
    env = wt.localhost_env(domain)
    env.update(PYTHONUNBUFFERED='1', ROS_LOG_DIR=tempfile.mkdtemp(prefix='launch_bench_log_'))
    first = FirstMessages(domain)
    try:
        up = start_up(env, first, args.runs, args.cpu_seconds)
    finally:
        first.close()
    lines = passes_lines(env, args.lines_seconds)

    print(f'{utc_minute()}, '
          f'{platform.node()} ({os.cpu_count()} cores), ROS_DISTRO '
          f'{os.environ.get("ROS_DISTRO", "?")}, load average {load(None)}')
    spawned = up['spawned']
    first_spawn = {k: statistics.median(v) for k, v in spawned.items()}
    print(f'(a) start-up until the three node processes run, median of {args.runs}: '
          f'ros2 launch {first_spawn["ros2 launch"]:.3f} s '
          f'(runs {fmt(spawned["ros2 launch"], 3)}); '
          f'target <= {START_TARGET_S} s: '
          f'{"met" if first_spawn["ros2 launch"] <= START_TARGET_S else "MISSED"}; floors: '
          f'ros2 run x3 from sh {first_spawn["ros2 run x3 (sh)"]:.3f} s '
          f'(runs {fmt(spawned["ros2 run x3 (sh)"], 3)}), the executables from sh '
          f'{first_spawn["executables x3 (sh)"]:.3f} s '
          f'(runs {fmt(spawned["executables x3 (sh)"], 3)})')
    times = up['times']
    median = {k: statistics.median(v) for k, v in times.items()}
    launch_s = median['ros2 launch']
    print(f'(a) start-up until bridge_data and every heartbeat, median of {args.runs}: '
          f'ros2 launch {launch_s:.2f} s (runs {fmt(times["ros2 launch"])}); target <= '
          f'{START_TARGET_S} s: {"met" if launch_s <= START_TARGET_S else "MISSED"}; floors: '
          f'ros2 run x3 from sh {median["ros2 run x3 (sh)"]:.2f} s '
          f'(runs {fmt(times["ros2 run x3 (sh)"])}), the executables from sh '
          f'{median["executables x3 (sh)"]:.2f} s (runs {fmt(times["executables x3 (sh)"])})')
    cpu = up['cpu']
    print(f'(b) CPU of launch itself, HB50 stack running, idle, output=screen, '
          f'{args.cpu_seconds:g} s: {cpu["ros2 launch"]:.3f} % of a core; target <= '
          f'{CPU_TARGET:g} %: {"met" if cpu["ros2 launch"] <= CPU_TARGET else "MISSED"}; '
          f'floor (sh waiting for its three ros2 run): {cpu["ros2 run x3 (sh)"]:.3f} %')
    child, floor = lines['child'], lines['floor']
    printed = int(child[0]) if child else 0
    late = child[1] - floor[1] if child and floor else float('nan')
    ok = child is not None and lines['received'] == printed and late <= LATE_TARGET_S
    print(f'(c) {LINE_RATE} lines/s for {args.lines_seconds:g} s through launch: received '
          f'{lines["received"]} of {printed} printed; child run time '
          f'{child[1] if child else float("nan"):.3f} s, longest print '
          f'{child[2] if child else float("nan"):.3f} ms; floor (same child into a pipe): '
          f'{floor[1] if floor else float("nan"):.3f} s, longest print '
          f'{floor[2] if floor else float("nan"):.3f} ms; launch CPU meanwhile '
          f'{lines["launch_cpu"]:.1f} %; target: every line, <= {LATE_TARGET_S} s later than '
          f'the floor: {"met" if ok else "MISSED"} (exit code {lines["exit"]})')


def fmt(values: Sequence[float], decimals: int = 2) -> str:
    """Return the values as text."""
    return ' '.join(f'{v:.{decimals}f}' for v in values)


if __name__ == '__main__':
    main()
