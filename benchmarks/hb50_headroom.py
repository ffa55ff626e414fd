#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""
HB50 headroom: every rate held with users watching, and under a flood of invalid commands.

Load: `hb50_stack` on MuJoCo (what `make run` starts; --separate: the four executables) + two
Python observer processes (one subscribes to every 500 Hz topic and the 10 Hz RELIABLE ones,
one to /hb50/bridge_data) + `ros2 bag record -a` (ros2bag_mcap) + a stall detector (a process
sleeping 1 ms and recording every oversleep > 10 ms: a VM stall, not ours). --runs runs of
--duration s each print, per topic and per receiver (each observer, the bag), the rate beside
its target (500 Hz topics >= 99 % of 500 Hz; 10 Hz RELIABLE topics 10 +- 0.1 Hz) and the
largest gap beside 20 ms, the gaps that overlap a measured stall reported apart. An observer
also prints the largest gap in the stamps of the topics with a header: a gap there is the
publisher's (ticks it skipped), one only in the arrivals is on the way or in the observer.
--extra-observers adds observers of every topic; --max-observers N tries 1..N extra and reports
the largest count that still holds.

Hostile phase: the same stack and a bridge_data observer while this process publishes a
derandomized flood of --flood invalid JointCommands in --duration s (bad lengths, non-finite
values, gains out of range, 1 MB strings, 10k-entry arrays) on /hb50/joint_command:
bridge_data's rate (target >= 99 %) and hb50_stack's RSS growth (target <= 10 MB; the
composed process holds bridge_node).

    python3 benchmarks/hb50_headroom.py [--duration 20] [--runs 3] [--flood 2000]
Needs the workspace sourced. The load average is printed beside every figure.
"""

import argparse
import json
import math
import os
import struct
import sys
import tempfile
import time
from typing import Any, Dict, Iterable, List, Optional, Sequence, Tuple

from _bench_common import spin_then_close
from _cpu_sampling import load
from ament_index_python.packages import get_package_share_directory
from node_runtime import stop as stop_request
from workspace_testing import executable, isolate, NodeProcess, start, stop

FAST = ('bridge_data', 'bridge_state', 'joint_command', 'robot_state')
SLOW = ('bridge_state_10hz', 'robot_state_10hz')
STAMPED = ('bridge_data', 'joint_command', 'robot_state', 'robot_state_10hz')  # a header first
_STAMP = struct.Struct('<iI')
RATE, SLOW_RATE = 500.0, 10.0
MIN_FRACTION = 0.99
SLOW_TOLERANCE = 0.1
MAX_GAP_MS = 20.0
STALL_MS = 10.0
MAX_RSS_MB = 10.0
#: (start, end) in realtime ns: a measurement window, or a stall.
Span = Tuple[int, int]
#: (label, {topic: arrival ns}, {topic: stamp ns}) of one receiver.
Receiver = Tuple[str, Dict[str, List[int]], Dict[str, List[int]]]


# --- helper processes (this file with a hidden flag) -------------------------------------------

def _stamp_ns(raw: bytes) -> int:
    """header.stamp (ns) of a serialized message that starts with a std_msgs/Header."""
    sec: int
    nanosec: int
    sec, nanosec = _STAMP.unpack_from(raw, 4)   # after the 4-byte CDR encapsulation
    return sec * 1_000_000_000 + nanosec


def run_observer(out_path: str, names: Sequence[str]) -> int:
    """
    Receive `names` (raw); at exit write each message's arrival (realtime ns).

    For the topics with a header, the stamps too: a gap in the stamps is the publisher's
    (ticks it did not run), one only in the arrivals is on the way or in this observer.
    """
    import rclpy
    from rclpy.experimental import EventsExecutor
    from rclpy.signals import SignalHandlerOptions

    from hb50_commons.msg import BridgeData, BridgeState, JointCommand, RobotState
    from hb50_nodes import qos
    types = {'bridge_data': BridgeData, 'bridge_state': BridgeState,
             'joint_command': JointCommand, 'robot_state': RobotState,
             'bridge_state_10hz': BridgeState, 'robot_state_10hz': RobotState}
    stopping = stop_request.watch()   # SIGINT/SIGTERM set it (node_runtime.stop)
    rclpy.init(signal_handler_options=SignalHandlerOptions.NO)
    node = rclpy.create_node(f'headroom_observer_{os.getpid()}')
    arrivals: Dict[str, List[int]] = {name: [] for name in names}
    stamps: Dict[str, List[int]] = {name: [] for name in names if name in STAMPED}

    def on_raw(raw: bytes, a: List[int], s: Optional[List[int]]) -> None:
        a.append(time.time_ns())
        if s is not None:
            s.append(_stamp_ns(raw))
    for name in names:
        profile = qos.RELIABLE if name in SLOW else qos.MAB_RT
        node.create_subscription(
            types[name], f'/hb50/{name}',
            lambda raw, a=arrivals[name], s=stamps.get(name): on_raw(raw, a, s),
            profile, raw=True)
    executor = EventsExecutor()
    executor.add_node(node)
    print('running:', flush=True)
    spin_then_close(executor, node, stopping.is_set, 0.05)
    with open(out_path, 'w', encoding='utf-8') as f:
        json.dump({'arrivals': arrivals, 'stamps': stamps}, f)
    return 0


def run_stall_detector(out_path: str) -> int:
    """Sleep 1 ms at a time; write every oversleep > STALL_MS as (start, end) realtime ns."""
    stopping = stop_request.watch()   # SIGINT/SIGTERM set it (node_runtime.stop)
    stalls: List[Span] = []
    print('running:', flush=True)
    while not stopping.is_set():
        t0, w0 = time.monotonic_ns(), time.time_ns()
        time.sleep(0.001)
        late = time.monotonic_ns() - t0 - 1_000_000
        if late > STALL_MS * 1e6:
            stalls.append((w0, w0 + 1_000_000 + late))
    with open(out_path, 'w', encoding='utf-8') as f:
        json.dump(stalls, f)
    return 0


# --- analysis ---------------------------------------------------------------------------------

def figures(times: Iterable[int], window: Span,
            stalls: Sequence[Span]) -> Tuple[float, float, float]:
    """Return (rate Hz, largest gap ms outside stalls, largest gap ms overlapping one)."""
    t0, t1 = window
    inside = sorted(t for t in times if t0 <= t <= t1)
    rate = len(inside) / ((t1 - t0) * 1e-9)
    clean = stalled = 0.0
    for a, b in zip([t0] + inside, inside + [t1]):
        gap = (b - a) * 1e-6
        if any(s0 < b and s1 > a for s0, s1 in stalls):
            stalled = max(stalled, gap)
        else:
            clean = max(clean, gap)
    return rate, clean, stalled


def judge(name: str, rate: float, gap: float) -> Tuple[bool, str]:
    if name in SLOW:
        ok = abs(rate - SLOW_RATE) <= SLOW_TOLERANCE and gap <= 1e3 / SLOW_RATE + MAX_GAP_MS
        target = f'10 +- {SLOW_TOLERANCE:g} Hz'
    else:
        ok = rate >= MIN_FRACTION * RATE and gap <= MAX_GAP_MS
        target = f'>= {MIN_FRACTION * RATE:.0f} Hz'
    return ok, target


def stamp_gap(stamps: Iterable[int], window: Span) -> Optional[float]:
    """Largest gap (ms) between the stamps inside `window`, or None."""
    inside = sorted(t for t in stamps if window[0] <= t <= window[1])
    if len(inside) < 2:
        return None
    return max(b - a for a, b in zip(inside, inside[1:])) * 1e-6


def report(receivers: Sequence[Receiver], window: Span, stalls: Sequence[Span]) -> bool:
    """
    Print one line per (receiver, topic); return True when every figure is met.

    receivers: (label, arrivals, stamps) with {topic: [ns]}; stamps may lack a topic.
    """
    all_ok = True
    for label, arrivals, stamps in receivers:
        for name in FAST + SLOW:
            if name not in arrivals:
                continue
            rate, gap, stalled = figures(arrivals[name], window, stalls)
            sent_gap = stamp_gap(stamps[name], window) if name in stamps else None
            sent = '' if sent_gap is None else f'  in the stamps {sent_gap:6.1f} ms'
            ok, target = judge(name, rate, gap)
            all_ok &= ok
            gap_target = (f'{1e3 / SLOW_RATE + MAX_GAP_MS:.0f}' if name in SLOW
                          else f'{MAX_GAP_MS:.0f}')
            print(f'    {label:10s} {name:18s} {rate:6.1f} Hz ({target})  largest gap '
                  f'{gap:6.1f} ms (<= {gap_target} ms)  in stalls {stalled:6.1f} ms{sent}  '
                  f'{"ok" if ok else "NOT MET"}')
    return all_ok


def bag_arrivals(bag: str) -> Dict[str, List[int]]:
    from ros2bag_mcap.bag import read_messages
    arrivals: Dict[str, List[int]] = {}
    for topic, _, _, log_time, _ in read_messages(bag):
        name = topic.rsplit('/', 1)[-1]
        if topic.startswith('/hb50/') and name in FAST + SLOW:
            arrivals.setdefault(name, []).append(log_time)
    return arrivals


# --- runs --------------------------------------------------------------------------------

def start_ready(cmd: Sequence[str], what: str) -> NodeProcess:
    proc = start(cmd)
    if not proc.wait_for_output('running:', 60, period=0.01):
        raise RuntimeError(f'{what} did not start: {proc.output()[-500:]}')
    return proc


def helper(flag: str, *args: str) -> List[str]:
    return [sys.executable, os.path.abspath(__file__), flag, *args]


SEPARATE = ('bridge_node', 'control_node', 'heartbeat_monitor', 'state_publisher_node')


def start_stack(separate: bool = False) -> List[NodeProcess]:
    """Return the stack's processes, bridge_node's first: hb50_stack, or (separate) four."""
    if not separate:
        return [start([executable('hb50_nodes', 'hb50_stack'), '--ros-args', '--log-level',
                       'warn'])]
    params = os.path.join(get_package_share_directory('hb50_nodes'), 'config', 'hb50.yaml')
    return [start([executable('hb50_nodes', exe), '--ros-args', '--params-file', params,
                   '--log-level', 'warn']) for exe in SEPARATE]


def stop_stack(procs: Iterable[NodeProcess]) -> None:
    for proc in procs:
        stop(proc)


def one_run(index: int, args: argparse.Namespace, tmp: str, extra: int) -> bool:
    """One loaded run; return True when every figure is met."""
    stack = start_stack(args.separate)
    procs: List[NodeProcess] = []
    outs: List[Tuple[str, str]] = []
    rec: Optional[NodeProcess] = None
    try:
        stall_out = os.path.join(tmp, f'stalls_{index}.json')
        stall = start_ready(helper('--stall-detector', stall_out), 'stall detector')
        observers: List[Tuple[str, Tuple[str, ...]]] = [
            ('all topics', FAST + SLOW), ('bridge_data', ('bridge_data',))]
        observers += [(f'extra {i + 1}', FAST + SLOW) for i in range(extra)]
        for i, (label, names) in enumerate(observers):
            out = os.path.join(tmp, f'obs_{index}_{i}.json')
            procs.append(start_ready(helper('--observer', out, *names), label))
            outs.append((label, out))
        bag = os.path.join(tmp, f'bag_{index}')
        rec = start([executable('ros2bag_mcap', 'ros2bag'), 'record', '-a', '-o', bag])
        time.sleep(args.warmup)
        before = load()
        start_ns = time.time_ns()
        time.sleep(args.duration)
        window = (start_ns, time.time_ns())
        after = load()
    finally:
        stop_stack(stack)
        for proc in procs:
            stop(proc)
        if rec is not None:
            stop(rec)
        stop(stall)
    with open(stall_out, encoding='utf-8') as f:
        stalls = [tuple(s) for s in json.load(f) if s[1] >= window[0] and s[0] <= window[1]]
    receivers: List[Receiver] = []
    for label, out in outs:
        with open(out, encoding='utf-8') as f:
            seen = json.load(f)
        receivers.append((label, seen['arrivals'], seen['stamps']))
    receivers.append(('bag', bag_arrivals(bag), {}))
    longest = max((s1 - s0 for s0, s1 in stalls), default=0) * 1e-6
    print(f'  run {index + 1}: {args.duration:g} s, {len(observers)} observers + bag, load '
          f'{before} -> {after}; stalls > {STALL_MS:g} ms: {len(stalls)} (longest '
          f'{longest:.1f} ms)')
    return report(receivers, window, stalls)


def invalid_commands(count: int) -> List[Any]:
    """`count` invalid JointCommands, the same every run: five kinds in turn."""
    from hb50_commons.msg import JointCommand

    from hb50_nodes.layout import JOINT_NAMES
    n = len(JOINT_NAMES)

    def base(source: str) -> Any:
        msg = JointCommand()
        msg.source_node = source
        msg.name = list(JOINT_NAMES)
        for field in ('kp', 'ki', 'kd', 't_pos', 't_vel', 't_trq'):
            setattr(msg, field, [0.0] * n)
        msg.brake = [False] * n
        return msg
    kinds: List[Any] = []
    bad_len = base('fuzz_length')
    bad_len.kp = [1.0] * (n - 1)
    kinds.append(bad_len)
    nan = base('fuzz_nan')
    nan.t_pos = [math.nan] + [0.0] * (n - 1)
    nan.t_trq = [0.0] * (n - 1) + [math.inf]
    kinds.append(nan)
    gains = base('fuzz_gains')
    gains.kp = [1e6] * n
    gains.kd = [-5.0] * n
    kinds.append(gains)
    big_string = base('x' * (1 << 20))
    kinds.append(big_string)
    big_array = base('fuzz_array')
    big_array.t_vel = [0.0] * 10_000
    kinds.append(big_array)
    return [kinds[i % len(kinds)] for i in range(count)]


def rss_mb(pid: int) -> float:
    with open(f'/proc/{pid}/status', encoding='utf-8') as f:
        for line in f:
            if line.startswith('VmRSS:'):
                return int(line.split()[1]) / 1024.0
    return float('nan')


def hostile(args: argparse.Namespace, tmp: str) -> bool:
    """Flood invalid commands while measuring bridge_data's rate and the stack's RSS."""
    import rclpy
    from rclpy.serialization import serialize_message

    from hb50_commons.msg import JointCommand
    from hb50_nodes import qos
    payloads = [serialize_message(m) for m in invalid_commands(args.flood)]
    stack = start_stack(args.separate)
    out = os.path.join(tmp, 'obs_hostile.json')
    stall_out = os.path.join(tmp, 'stalls_hostile.json')
    context = rclpy.Context()
    context.init()
    try:
        stall = start_ready(helper('--stall-detector', stall_out), 'stall detector')
        obs = start_ready(helper('--observer', out, 'bridge_data'), 'observer')
        node = rclpy.create_node('headroom_fuzzer', context=context)
        pub = node.create_publisher(JointCommand, '/hb50/joint_command', qos.MAB_RT)
        time.sleep(args.warmup)
        rss0 = rss_mb(stack[0].pid)
        before = load()
        start_ns = time.time_ns()
        t0 = time.monotonic()
        period = args.duration / max(1, len(payloads))
        for i, data in enumerate(payloads):
            delay = t0 + i * period - time.monotonic()
            if delay > 0:
                time.sleep(delay)
            pub.publish(data)
        time.sleep(max(0.0, t0 + args.duration - time.monotonic()))
        window = (start_ns, time.time_ns())
        sent_in = time.monotonic() - t0
        rss1 = rss_mb(stack[0].pid)
        after = load()
        node.destroy_node()
    finally:
        stop_stack(stack)
        stop(obs)
        stop(stall)
        context.try_shutdown()
    with open(out, encoding='utf-8') as f:
        seen = json.load(f)
    with open(stall_out, encoding='utf-8') as f:
        stalls = [tuple(s) for s in json.load(f) if s[1] >= window[0] and s[0] <= window[1]]
    print(f'hostile input: {len(payloads)} invalid JointCommands in {sent_in:.1f} s (bad '
          f'lengths, NaN/inf, gains out of range, 1 MB strings, 10k-entry arrays); load '
          f'{before} -> {after}; stalls > {STALL_MS:g} ms: {len(stalls)}')
    ok = report([('observer', seen['arrivals'], seen['stamps'])], window, stalls)
    grew = rss1 - rss0
    rss_ok = grew <= MAX_RSS_MB
    holder = 'bridge_node' if args.separate else 'hb50_stack'
    print(f'    {holder} RSS {rss0:.1f} -> {rss1:.1f} MB: grew {grew:.1f} MB (target <= '
          f'{MAX_RSS_MB:g} MB) {"ok" if rss_ok else "NOT MET"}')
    return ok and rss_ok


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__.strip().split('\n')[0])
    p.add_argument('--duration', type=float, default=20.0, help='s per run')
    p.add_argument('--runs', type=int, default=3)
    p.add_argument('--warmup', type=float, default=5.0, help='s before each run measures')
    p.add_argument('--extra-observers', type=int, default=0,
                   help='more observers of every topic in every run')
    p.add_argument('--max-observers', type=int, default=0,
                   help='then try 1..N extra observers; report the largest that holds')
    p.add_argument('--flood', type=int, default=2000, help='invalid commands (0: skip)')
    p.add_argument('--separate', action='store_true',
                   help='the four executables in their own processes instead of hb50_stack')
    p.add_argument('--observer', nargs='+', help=argparse.SUPPRESS)
    p.add_argument('--stall-detector', help=argparse.SUPPRESS)
    args = p.parse_args()
    if args.observer:
        return run_observer(args.observer[0], args.observer[1:])
    if args.stall_detector:
        return run_stall_detector(args.stall_detector)
    isolate()
    what = 'the four HB50 executables' if args.separate else 'hb50_stack'
    print(f'HB50 headroom: {what} on MuJoCo, {args.runs} runs of {args.duration:g} s '
          f'({os.cpu_count()} CPUs, ROS_DOMAIN_ID={os.environ["ROS_DOMAIN_ID"]}, load '
          f'{load()})')
    results: List[bool] = []
    with tempfile.TemporaryDirectory(prefix='hb50_headroom_') as tmp:
        for i in range(args.runs):
            results.append(one_run(i, args, tmp, args.extra_observers))
        print(f'loaded runs: {sum(results)} of {len(results)} met every figure')
        if args.max_observers:
            held = 0
            for extra in range(1, args.max_observers + 1):
                print(f'with {extra} extra observer(s) of every topic:')
                if not one_run(100 + extra, args, tmp, extra):
                    break
                held = extra
            print(f'largest number of extra observers at which every figure held: {held} '
                  f'(of {args.max_observers} tried)')
        if args.flood:
            hostile(args, tmp)
    print(f'load average after: {load()}')
    return 0


if __name__ == '__main__':
    sys.exit(main())
