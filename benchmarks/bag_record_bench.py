# SPDX-License-Identifier: Apache-2.0
"""
Recording the HB50 stack at full rate with `ros2 bag record -a` (ros2bag_mcap), then replay.

Prints, each beside its target and a floor measured in the same run:
- recorder CPU (% of one core) vs the C floor: rcl_floor (benchmarks/rcl_floor, C on rcl,
  an rcl wait set, every waiting sample taken serialized on each wake-up) over the same
  topics with the same reliability and depth, one process per message type (rcl_floor takes
  one type; its topics are remapped to the recorded ones), minus the extra processes' idle
  cost (an rcl_floor on a silent topic, same window length); the issue-40 target is
  <= 1.5x. Beside it the rclpy floor: one bare raw-subscriber process (EventsExecutor) of the
  same topics;
- messages/s and bytes/s written vs what the publishers sent;
- loss against the 500 Hz nodes' own counts (target 0);
- replay (play --rt-priority 10, receiver at SCHED_FIFO too) timing error p50/p99 (player's
  publish time vs the recorded schedule, and the
  receiver's inter-arrival vs the recorded one) vs the machine's own scheduling lateness of a
  2 ms deadline loop.

Usage: bag_record_bench.py [--seconds 10]
"""

import argparse
import os
import re
import sys
import tempfile
import time
from typing import Dict, List, Optional, Sequence, Tuple

from _bench_common import utc_minute
from _cpu_sampling import cpu_seconds
import numpy as np
import numpy.typing as npt
from workspace_testing import stop as stop_node

FAST = {'/hb50/bridge_data': 'bridge_node', '/hb50/joint_command': 'control_node',
        '/hb50/robot_state': 'control_node'}
TYPES = {'/hb50/bridge_data': 'hb50_commons/msg/BridgeData',
         '/hb50/bridge_state': 'hb50_commons/msg/BridgeState',
         '/hb50/joint_command': 'hb50_commons/msg/JointCommand',
         '/hb50/robot_state': 'hb50_commons/msg/RobotState'}


SUBSCRIBED = re.compile(r'Subscribed to topic (\S+) \((\S+), (\w+), (\w+)\)')


def floor_subscriber(topics: Sequence[str]) -> None:
    """Receive `topics` ('topic=type' each) raw and do nothing else (the rclpy floor)."""
    import rclpy
    from rclpy.experimental import EventsExecutor
    from rclpy.qos import QoSProfile, ReliabilityPolicy
    from ros2bag_mcap.schema import message_class
    rclpy.init()
    node = rclpy.create_node('bag_bench_floor')
    count = [0]
    for item in topics or [f'{t}={ty}' for t, ty in TYPES.items()]:
        topic, type_name = item.split('=', 1)
        node.create_subscription(
            message_class(type_name), topic, lambda _: count.__setitem__(0, count[0] + 1),
            QoSProfile(depth=1000, reliability=ReliabilityPolicy.BEST_EFFORT), raw=True)
    ex = EventsExecutor()
    ex.add_node(node)
    from rclpy.executors import ExternalShutdownException
    try:
        while rclpy.ok():
            ex.spin_once(timeout_sec=0.1)
    except (KeyboardInterrupt, ExternalShutdownException):
        pass
    print(f'floor subscriber received {count[0]}', flush=True)


def c_floor(recorded: Sequence[Tuple[str, str, str, str]],
            seconds: float) -> Tuple[float, float, float, int]:
    """
    CPU of rcl_floor processes taking `recorded` [(topic, type, reliability, durability)].

    One process per (type, reliability), its subscriptions remapped to the topics; then one
    idle rcl_floor (a silent topic) for the per-process cost. Returns (floor %, the
    processes' sum %, the idle process %, number of processes): floor = sum - (n - 1) idle.
    """
    import workspace_testing as wt
    exe = wt.executable('rcl_floor', 'rcl_floor')
    groups: Dict[Tuple[str, bool], List[str]] = {}
    for topic, type_name, reliability, _ in recorded:
        groups.setdefault((type_name, reliability == 'reliable'), []).append(topic)

    def command(i: int, type_name: str, reliable: bool, topics: Sequence[str]) -> List[str]:
        args = [exe, '--name', f'bag_bench_c{i}', '--publishers', '0', '--rate', '1',
                '--subscriptions', str(len(topics)), '--sub-topic', 'in',
                '--sub-type', type_name, '--depth', '1000']
        if reliable:
            args.append('--reliable')
        names = ['in'] if len(topics) == 1 else [f'in_{k}' for k in range(len(topics))]
        args.append('--ros-args')
        for name, topic in zip(names, topics):
            args += ['-r', f'{name}:={topic}']
        return args
    procs = [wt.start(command(i, ty, rel, tops))
             for i, ((ty, rel), tops) in enumerate(sorted(groups.items()))]
    try:
        for proc in procs:
            proc.wait_for_output('running:', 20)
        time.sleep(3.0)
        c0 = [cpu_seconds(p.pid) for p in procs]
        t0 = time.monotonic()
        time.sleep(seconds)
        wall = time.monotonic() - t0
        total = sum(100 * (cpu_seconds(p.pid) - c) / wall for p, c in zip(procs, c0))
    finally:
        for proc in procs:
            wt.stop(proc)
    idle = wt.start([exe, '--name', 'bag_bench_c_idle', '--publishers', '0', '--rate', '1',
                     '--subscriptions', '1', '--sub-topic', 'bag_bench_silent',
                     '--sub-type', 'hb50_commons/msg/Status', '--depth', '1000'])
    try:
        idle.wait_for_output('running:', 20)
        time.sleep(3.0)
        idle_c0, t0 = cpu_seconds(idle.pid), time.monotonic()
        time.sleep(seconds)
        idle_cpu = 100 * (cpu_seconds(idle.pid) - idle_c0) / (time.monotonic() - t0)
    finally:
        wt.stop(idle)
    return total - (len(procs) - 1) * idle_cpu, total, idle_cpu, len(procs)


def deadline_loop_lateness(n: int = 2000, period: float = 0.002) -> npt.NDArray[np.float64]:
    """Lateness (us) of a sleep + 0.5 ms busy-wait loop to 2 ms deadlines: the floor."""
    late: List[float] = []
    start = time.monotonic() + 0.01
    for i in range(n):
        due = start + i * period
        while True:
            left = due - time.monotonic()
            if left <= 0:
                break
            if left > 0.0005:
                time.sleep(left - 0.0005)
        late.append((time.monotonic() - due) * 1e6)
    return np.asarray(late)


def main() -> Optional[int]:
    parser = argparse.ArgumentParser(description=__doc__.strip().split('\n')[0])
    parser.add_argument('--seconds', type=float, default=10.0)
    parser.add_argument('--floor-subscriber', action='store_true', help=argparse.SUPPRESS)
    parser.add_argument('topics', nargs='*', help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.floor_subscriber:
        floor_subscriber(args.topics)
        return None
    from workspace_testing import hb50_stack
    from workspace_testing.probe import Probe
    import workspace_testing as wt
    from ros2bag_mcap.bag import read_messages
    from rclpy.serialization import deserialize_message
    from ros2bag_mcap.schema import message_class
    wt.isolate()
    load_start = os.getloadavg()[0]
    started_at = utc_minute()
    tmp = tempfile.mkdtemp(prefix='bag_bench_')
    bag = os.path.join(tmp, 'bench')
    ros2bag = wt.executable('ros2bag_mcap', 'ros2bag')
    stack = hb50_stack.start_hb50_stack()
    try:
        time.sleep(4.0)
        rec = wt.start([ros2bag, 'record', '-a', '-o', bag])
        time.sleep(3.0)
        c0, t0 = cpu_seconds(rec.pid), time.monotonic()
        time.sleep(args.seconds)
        rec_cpu = 100 * (cpu_seconds(rec.pid) - c0) / (time.monotonic() - t0)
        recorded = SUBSCRIBED.findall(rec.output())
        # The C floor over the recorded topics, then the rclpy floor, the stack still running.
        c_cpu, c_raw, c_idle, c_procs = c_floor(recorded, args.seconds)
        floor = wt.start([sys.executable, __file__, '--floor-subscriber',
                          *(f'{t}={ty}' for t, ty, _, _ in recorded)])
        time.sleep(3.0)
        c0, t0 = cpu_seconds(floor.pid), time.monotonic()
        time.sleep(args.seconds)
        floor_cpu = 100 * (cpu_seconds(floor.pid) - c0) / (time.monotonic() - t0)
        wt.stop(floor)
        outputs = {name: wt.stop(p).output for name, p in stack.items()}
        time.sleep(0.5)
        wt.stop(rec)
    finally:
        for p in stack.values():
            if p.poll() is None:
                stop_node(p)
    # Written rate and loss.
    msgs = list(read_messages(bag))
    t_first, t_last = min(m[3] for m in msgs), max(m[3] for m in msgs)
    span = (t_last - t_first) / 1e9
    size = sum(os.path.getsize(os.path.join(bag, f)) for f in os.listdir(bag))
    sent_rate = 0.0
    lost = 0
    for topic, node in FAST.items():
        marks = hb50_stack.published_counts(outputs[node])
        cls = message_class(TYPES[topic])
        stamps = np.array([(lambda m: m.header.stamp.sec * 10**9 + m.header.stamp.nanosec)(
            deserialize_message(bytes(d), cls)) for tp, _, d, _, _ in msgs if tp == topic])
        start = next((n, t) for n, t in marks if t > stamps.min())
        end = marks[-1]
        expected = end[0] - start[0]
        got = int(np.count_nonzero((stamps > start[1]) & (stamps <= end[1])))
        lost += expected - got
        sent_rate += expected / ((end[1] - start[1]) / 1e9)
    # Replay of the 500 Hz topics into a receiver.
    probe = Probe({t: message_class(TYPES[t]) for t in FAST}, raw=True, depth=5000,
                  rt_priority=10)
    player = wt.start([ros2bag, 'play', bag, '--topics', *FAST, '--delay', '2',
                       '--rt-priority', '10'])
    player.wait(span + 60)
    _, play_out, _ = wt.stop(player)
    time.sleep(0.3)
    probe.close()
    m = re.search(r'p50 ([\d.]+) us, p99 ([\d.]+) us', play_out)
    p50, p99 = (float(m.group(1)), float(m.group(2))) if m else (float('nan'),) * 2
    errs = []
    for topic in FAST:
        rec_t = np.array([t for tp, _, _, t, _ in msgs if tp == topic], dtype=np.int64)
        got_t = np.array([t for t, _ in probe.records[topic]], dtype=np.int64)
        if len(rec_t) == len(got_t):
            errs.append(np.abs(np.diff(got_t) - np.diff(rec_t)) / 1e3)
    ia = np.concatenate(errs) if errs else np.array([np.nan])
    floor_late = deadline_loop_lateness()
    print(f'HB50 stack recorded {span:.1f} s with ros2 bag record -a (ros2bag_mcap, '
          f'ROS_DISTRO={os.environ.get("ROS_DISTRO")}, {started_at}, {os.cpu_count()} cores, '
          f'load {load_start:.1f} at the start, {os.getloadavg()[0]:.1f} at the end)')
    print(f'{"figure":<34}{"measured":>14}{"target":>16}{"floor":>18}')
    ratio = rec_cpu / c_cpu if c_cpu > 0 else float('inf')
    print(f'{"recorder CPU (% of a core)":<34}{rec_cpu:>14.1f}{"<= 1.5x C":>16}'
          f'{c_cpu:>14.1f} (C floor, rcl_floor: {c_procs} processes {c_raw:.1f} % less '
          f'{c_procs - 1} x idle {c_idle:.2f} %)')
    print(f'{"  ratio to the C floor":<34}{ratio:>14.2f}{"<= 1.5":>16}'
          f'{"":>14} ({"met" if ratio <= 1.5 else "NOT met"}; {len(recorded)} topics)')
    print(f'{"  rclpy floor (% of a core)":<34}{floor_cpu:>14.1f}{"-":>16}'
          f'{"":>14} (bare raw subscriber, EventsExecutor, same topics)')
    print(f'{"messages/s written":<34}{len(msgs) / span:>14.0f}{"= sent":>16}'
          f'{sent_rate:>14.0f} (500 Hz topics sent)')
    print(f'{"bytes/s written":<34}{size / span:>14.0f}{"-":>16}{"-":>18}')
    print(f'{"lost vs publishers (500 Hz)":<34}{lost:>14d}{"0":>16}{"0":>18}')
    print(f'{"replay publish error p50 (us)":<34}{p50:>14.1f}{"-":>16}'
          f'{np.percentile(floor_late, 50):>14.1f} (deadline loop)')
    print(f'{"replay publish error p99 (us)":<34}{p99:>14.1f}{"<= 1000":>16}'
          f'{np.percentile(floor_late, 99):>14.1f} (deadline loop)')
    print(f'{"replay inter-arrival err p50 (us)":<34}{np.nanpercentile(ia, 50):>14.1f}{"-":>16}'
          f'{"-":>18}')
    print(f'{"replay inter-arrival err p99 (us)":<34}{np.nanpercentile(ia, 99):>14.1f}'
          f'{"<= 1000":>16}{"-":>18}')
    return 0


if __name__ == '__main__':
    sys.exit(main())
