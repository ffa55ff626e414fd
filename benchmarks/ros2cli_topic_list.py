#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""
Benchmark of ros2cli_py: `ros2 topic list` wall time beside the issue-26 target and a floor.

Starts one publisher node (the fixture graph of ros2cli_py's tests is not needed: one talker
is enough for a non-empty answer), then times N runs of `ros2 topic list` with the daemon
running (the issue-26 target: median <= 0.6 s), N runs with `--no-daemon` (each run waits
for DDS discovery itself) and N runs of `python -c "import rclpy"` (the floor: the
interpreter and rclpy import every run pays). Prints the median and max of each beside the
target and the load average; stops the daemon it started.

Usage: ros2cli_topic_list.py [runs, default 10] [--domain N]
Needs the workspace sourced (ros2cli_py, workspace_testing installed).
"""
import argparse
import os
import statistics
import subprocess
import sys
import time
from typing import Mapping, Sequence

from _bench_common import ros2cli_py_env
import workspace_testing as wt

TARGET_S = 0.6
TALKER = ('import rclpy, time\n'
          'from std_msgs.msg import String\n'
          'rclpy.init()\n'
          'n = rclpy.create_node("bench_talker")\n'
          'n.create_publisher(String, "/bench_chatter", 10)\n'
          'rclpy.spin(n)\n')


def timed(argv: Sequence[str], env: Mapping[str, str], runs: int) -> list[float]:
    """Wall times (s) of ``runs`` runs of argv, each checked to exit 0."""
    times: list[float] = []
    for _ in range(runs):
        start = time.monotonic()
        proc = subprocess.run(argv, env=env, capture_output=True, text=True, timeout=60)
        times.append(time.monotonic() - start)
        if proc.returncode != 0:
            sys.exit(f'{argv} failed: {proc.stderr.strip()}')
    return times


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.strip().splitlines()[0])
    parser.add_argument('runs', nargs='?', type=int, default=10)
    parser.add_argument('--domain', type=int, default=None)
    args = parser.parse_args()
    _, env, ros2 = ros2cli_py_env(args.domain)
    talker = wt.start([sys.executable, '-c', TALKER], env=env)
    try:
        # the talker's start-up (rclpy import) and discovery: up to 20 s, then timed runs
        deadline = time.monotonic() + 20.0
        while True:
            listed = subprocess.run([ros2, 'topic', 'list'], env=env, capture_output=True,
                                    text=True, timeout=60).stdout
            if '/bench_chatter' in listed.split():
                break
            if time.monotonic() > deadline:
                sys.exit(f'ros2 topic list did not show the talker: {listed!r}')
            time.sleep(0.5)
        subprocess.run([ros2, 'daemon', 'start'], env=env, capture_output=True, timeout=60,
                       check=True)
        with_daemon = timed([ros2, 'topic', 'list'], env, args.runs)
        subprocess.run([ros2, 'daemon', 'stop'], env=env, capture_output=True, timeout=60,
                       check=True)
        direct = timed([ros2, 'topic', 'list', '--no-daemon'], env, args.runs)
        floors = timed([sys.executable, '-c', 'import rclpy'], env, args.runs)
    finally:
        subprocess.run([ros2, 'daemon', 'stop'], env=env, capture_output=True, timeout=60)
        wt.stop(talker, 10)
    print(f'load average: {" ".join(f"{x:.2f}" for x in os.getloadavg())}')
    median = statistics.median(with_daemon)
    print(f'ros2 topic list (daemon running): median {median:.3f} s, '
          f'max {max(with_daemon):.3f} s over {args.runs} runs; target <= {TARGET_S} s: '
          + ('met' if median <= TARGET_S else 'MISSED'))
    print(f'ros2 topic list --no-daemon: median {statistics.median(direct):.3f} s, '
          f'max {max(direct):.3f} s')
    print(f'floor python -c "import rclpy": median {statistics.median(floors):.3f} s, '
          f'max {max(floors):.3f} s')


if __name__ == '__main__':
    main()
