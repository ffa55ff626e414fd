#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""
Benchmark of issue 38: `ros2 doctor` and `ros2 topic list` beside their targets and a floor.

Starts the HB50 stack (bridge_node, control_node, heartbeat_monitor, state_publisher_node,
physics `simple`) on a domain of its own and the ros2cli_py daemon, waits until the daemon
lists the stack's topics, then times in the same run:

- `ros2 doctor` (every check, the HB50 one measuring its 500 Hz topics for 2 s): --doctor-runs
  runs --doctor-gap s apart, median and max beside the target (<= 3 s). Back to back
  (--doctor-gap 0), a run's new DDS participant is often discovered by the stack only 1-2.5 s
  late (Fast DDS, discovery range LOCALHOST), which a user running it once does not meet;
- `ros2 topic list` with the daemon: --runs runs, median and max beside the target (<= 0.4 s);
- the floor, `python -c "import rclpy"`: --runs runs (what every run of a Python `ros2` pays
  before doing anything).

Prints each figure beside its target and the floor, the load average, and whether `ros2
doctor` passed (its exit status and "All N checks passed"). Stops what it started.

Usage: ros2doctor_bench.py [--runs 10] [--doctor-runs 5] [--doctor-gap 4] [--domain N]
Needs the workspace sourced (ros2cli_py, hb50_nodes, workspace_testing installed).
"""

import argparse
import os
import statistics
import subprocess
import sys
import time
from typing import Dict, List, Mapping, Sequence

from _bench_common import ros2cli_py_env
from ament_index_python.packages import get_package_share_directory
import workspace_testing as wt

DOCTOR_TARGET_S = 3.0
TOPIC_LIST_TARGET_S = 0.4
STACK = ('bridge_node', 'control_node', 'heartbeat_monitor', 'state_publisher_node')


def timed(argv: Sequence[str], env: Mapping[str, str], runs: int,
          gap: float = 0.0) -> List[float]:
    """Return the wall times (s) of ``runs`` runs of argv (``gap`` s apart), each exit 0."""
    times = []
    for _ in range(runs):
        time.sleep(gap)
        start = time.monotonic()
        proc = subprocess.run(list(argv), env=dict(env), capture_output=True, text=True,
                              timeout=120)
        times.append(time.monotonic() - start)
        if proc.returncode != 0:
            sys.exit(f'{argv} failed ({proc.returncode}): {proc.stderr.strip()[:400]}')
    return times


def line(name: str, times: List[float], target: float, floor: float) -> str:
    """Return one figure: median, max, runs, target (met / MISSED) and the floor."""
    median = statistics.median(times)
    verdict = 'met' if median <= target else 'MISSED'
    return (f'{name}: median {median:.3f} s, max {max(times):.3f} s over {len(times)} runs; '
            f'target <= {target:g} s: {verdict}; floor (python -c "import rclpy") '
            f'{floor:.3f} s')


def start_stack(env: Mapping[str, str]) -> Dict[str, wt.NodeProcess]:
    """Start the HB50 stack with the installed parameters file (physics `simple`)."""
    params = os.path.join(get_package_share_directory('hb50_nodes'), 'config', 'hb50.yaml')
    return {name: wt.start([wt.executable('hb50_nodes', name), '--ros-args', '--params-file',
                            params, '-p', 'physics_engine:=simple'], env=dict(env))
            for name in STACK}


def main() -> None:
    """Run the benchmark (see the module docstring)."""
    parser = argparse.ArgumentParser(description=(__doc__ or '').strip().splitlines()[0])
    parser.add_argument('--runs', type=int, default=10)
    parser.add_argument('--doctor-runs', type=int, default=5)
    parser.add_argument('--doctor-gap', type=float, default=4.0,
                        help='seconds between two `ros2 doctor` runs (0: back to back)')
    parser.add_argument('--domain', type=int, default=None)
    args = parser.parse_args()
    domain, env, ros2 = ros2cli_py_env(args.domain)
    stack = start_stack(env)
    try:
        subprocess.run([ros2, 'daemon', 'start'], env=env, capture_output=True, timeout=60,
                       check=True)
        deadline = time.monotonic() + 60.0
        while True:
            listed = subprocess.run([ros2, 'topic', 'list'], env=env, capture_output=True,
                                    text=True, timeout=60).stdout.split()
            if '/hb50/bridge_data' in listed and '/hb50/robot_state' in listed:
                break
            if time.monotonic() > deadline:
                sys.exit(f'the HB50 stack did not appear: {listed}')
            time.sleep(0.5)
        time.sleep(3.0)         # the stack stands up; its rates settle
        verdict = subprocess.run([ros2, 'doctor'], env=env, capture_output=True, text=True,
                                 timeout=120)
        doctor = timed([ros2, 'doctor'], env, args.doctor_runs, args.doctor_gap)
        topic_list = timed([ros2, 'topic', 'list'], env, args.runs)
        floors = timed([sys.executable, '-c', 'import rclpy'], env, args.runs)
    finally:
        subprocess.run([ros2, 'daemon', 'stop'], env=env, capture_output=True, timeout=60)
        for proc in stack.values():
            wt.stop(proc)
        if args.domain is None:
            wt.release_domain(domain)
    floor = statistics.median(floors)
    print(f'load average: {" ".join(f"{x:.2f}" for x in os.getloadavg())}; '
          f'{os.cpu_count()} CPUs')
    summary = [x for x in verdict.stdout.splitlines() if 'checks passed' in x or 'failed' in x]
    findings = [x.split('UserWarning: ', 1)[-1] for x in verdict.stderr.splitlines()]
    print(f'ros2 doctor with the HB50 stack: exit {verdict.returncode}, '
          f"{' / '.join(summary) or 'no summary'}; {len(findings)} finding(s)"
          + ''.join(f'\n  {x}' for x in findings))
    print(line(f'ros2 doctor (HB50 stack, daemon up, runs {args.doctor_gap:g} s apart)', doctor,
               DOCTOR_TARGET_S, floor))
    print(line('ros2 topic list (daemon up)', topic_list, TOPIC_LIST_TARGET_S, floor))
    print(f'floor python -c "import rclpy": median {floor:.3f} s, max {max(floors):.3f} s '
          f'over {len(floors)} runs')


if __name__ == '__main__':
    main()
