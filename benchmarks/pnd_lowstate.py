#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""
PND Adam simulator -> ROS 2 benchmark: rt/lowstate rate, latency and CPU, beside a floor.

Measures rate/jitter at the simulator, ROS-side receive rate and one-way latency, and the
CPU of both processes; then, in the same run, the floor: a bare rclpy process publishing the
same message types (pnd_adam LowState with 19 motors + HandState) at the same rate from the
same kind of loop as the simulator (a thread sleeping to absolute deadlines, no executor),
received by the same receiver. Each figure is printed beside its issue-12 target: lowstate
at 500 Hz, 0 lost, write->callback p99 <= 0.5 ms, simulator CPU <= 10 % of one core and
<= 3x the floor.

Runs the installed simulator (plain Cyclone DDS, loopback config) with --trace-file, and an
rclpy subscriber (rmw_fastrtps_cpp, shipped interop profile) in a second process that stamps
every LowState on arrival. Latency = arrival wall clock - simulator's wall clock just after
write(), matched by tick (same host, same clock).

    python benchmarks/pnd_lowstate.py [--duration 10] [--rate 500] [--domain D]
                                      [--receiver-executor single|events]
Needs the workspace sourced (pnd_adam, pnd_adam_sim, pnd_adam_examples installed). The
domain defaults to one from workspace_testing's allocator (held for the run).
"""

import argparse
import json
import os
import signal
import statistics
import sys
import tempfile
import threading
import time
from typing import Any, Dict, List, Mapping, Sequence, Tuple

from _bench_common import spin_then_close, until
from _cpu_sampling import cpu_seconds
from workspace_testing import allocate_domain, start, stop


def receiver(seconds: float, out_path: str, executor_kind: str = 'single') -> None:
    """Record (tick, arrival ns) of every LowState: the rclpy side, in its own process."""
    import rclpy
    from rclpy.qos import qos_profile_sensor_data

    from pnd_adam.msg import LowState

    rclpy.init()
    node = rclpy.create_node('adam_lowstate_bench')
    rows: List[Tuple[int, int]] = []
    node.create_subscription(LowState, 'lowstate',
                             lambda m: rows.append((m.tick, time.time_ns())),
                             qos_profile_sensor_data)
    if executor_kind == 'events':
        from rclpy.experimental import EventsExecutor
        executor: Any = EventsExecutor()      # spun with a timeout: it never returns without one
    else:
        from rclpy.executors import SingleThreadedExecutor
        executor = SingleThreadedExecutor()
    executor.add_node(node)
    spin_then_close(executor, node, until(seconds), 0.05)
    with open(out_path, 'w', encoding='utf-8') as f:
        json.dump(rows, f)


TARGET_LATENCY_P99_US = 500.0
TARGET_CPU = 10.0           # % of one core
TARGET_RATIO = 3.0          # x the floor


def floor_publisher(rate_hz: float) -> None:
    """Publish LowState (19 motors) + HandState at rate_hz from bare rclpy: the floor."""
    import rclpy
    from rclpy.qos import QoSProfile, ReliabilityPolicy
    from rclpy.signals import SignalHandlerOptions

    from pnd_adam.msg import HandState, LowState, MotorState

    done = threading.Event()
    for sig in (signal.SIGINT, signal.SIGTERM):
        signal.signal(sig, lambda *_: done.set())
    rclpy.init(signal_handler_options=SignalHandlerOptions.NO)
    node = rclpy.create_node('adam_lowstate_floor')
    qos = QoSProfile(depth=1, reliability=ReliabilityPolicy.RELIABLE)   # Cyclone's default
    low_pub = node.create_publisher(LowState, 'lowstate', qos)
    hand_pub = node.create_publisher(HandState, 'handstate', qos)
    low = LowState(motor_state=[MotorState() for _ in range(19)])
    low.battery_data.status = 'OK'
    hand = HandState()
    period = 1.0 / rate_hz
    deadline = time.monotonic()
    try:
        while not done.is_set():
            low.tick = (low.tick + 1) & 0xFFFFFFFF
            low.battery_data.timestamp_ms = time.time_ns() // 1_000_000
            low_pub.publish(low)
            hand_pub.publish(hand)
            deadline += period
            now = time.monotonic()
            if deadline > now:
                time.sleep(deadline - now)
            elif now - deadline > period:
                deadline = now
    finally:
        node.destroy_node()
        rclpy.try_shutdown()


def load_average() -> str:
    """Return the 1/5/15 min load averages as text."""
    return '/'.join(f'{x:.2f}' for x in os.getloadavg())


def measure_floor(args: argparse.Namespace, env: Mapping[str, str], warmup: float,
                  recv_out: str) -> Tuple[float, float, int]:
    """Run the floor publisher and the receiver; return (floor CPU %, receiver CPU %, n)."""
    pub = start([sys.executable, os.path.abspath(__file__), '--floor'], env=env)
    rx = start([sys.executable, os.path.abspath(__file__), '--receiver',
                str(warmup + args.duration + 1.0), recv_out,
                '--receiver-executor', args.receiver_executor], env=env)
    try:
        time.sleep(warmup)
        c_pub, c_rx, t0 = cpu_seconds(pub.pid), cpu_seconds(rx.pid), time.monotonic()
        time.sleep(args.duration)
        c_pub2, c_rx2, t1 = cpu_seconds(pub.pid), cpu_seconds(rx.pid), time.monotonic()
        rx.wait(timeout=60)
    finally:
        received = stop(rx)
        published = stop(pub)
    if received.returncode != 0 or published.returncode != 0:
        sys.exit(f'floor run failed (publisher {published.returncode}, receiver '
                 f'{received.returncode}): {(published.output or "")[-1000:]} '
                 f'{(received.output or "")[-1000:]}')
    with open(recv_out, encoding='utf-8') as f:
        rows = json.load(f)
    os.remove(recv_out)
    dt = t1 - t0
    return 100 * (c_pub2 - c_pub) / dt, 100 * (c_rx2 - c_rx) / dt, len(rows)


def pct(values: Sequence[float], q: float) -> float:
    """Return the q quantile of values."""
    values = sorted(values)
    return values[min(len(values) - 1, int(q * len(values)))]


def main() -> None:
    """Run the benchmark (or, with the hidden options, the receiver or the floor)."""
    ap = argparse.ArgumentParser(description=__doc__.strip().splitlines()[0])
    ap.add_argument('--duration', type=float, default=10.0, help='measured seconds')
    ap.add_argument('--rate', type=float, default=500.0)
    ap.add_argument('--domain', type=int, default=None,
                    help='DDS domain (default: a free one from workspace_testing)')
    ap.add_argument('--receiver-executor', choices=('single', 'events'), default='single',
                    help="the rclpy receiver's executor (default: %(default)s)")
    ap.add_argument('--receiver', nargs=2, metavar=('SECONDS', 'OUT'), help=argparse.SUPPRESS)
    ap.add_argument('--floor', action='store_true', help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.receiver:
        receiver(float(args.receiver[0]), args.receiver[1], args.receiver_executor)
        return
    if args.floor:
        floor_publisher(args.rate)
        return

    from pnd_adam_examples.fastdds_profile import PROFILE_ENV, profile_path
    from workspace_testing.adam_sim import SimProcess, localhost_env

    if args.domain is None:
        args.domain = allocate_domain()
    env = localhost_env(args.domain)
    env[PROFILE_ENV] = profile_path()
    env['RMW_IMPLEMENTATION'] = 'rmw_fastrtps_cpp'
    warmup = 3.0
    tmp = tempfile.mkdtemp(prefix='pnd_bench_')
    trace, recv_out = os.path.join(tmp, 'trace.csv'), os.path.join(tmp, 'recv.json')
    sim = SimProcess(args.domain, rate_hz=args.rate, env=env,
                     extra_args=['--trace-file', trace])
    rx = None
    try:
        if not sim.wait_for('running:', 20):
            sys.exit('simulator did not start: ' + '\n'.join(sim.lines))
        rx = start([sys.executable, os.path.abspath(__file__), '--receiver',
                    str(warmup + args.duration + 1.0), recv_out,
                    '--receiver-executor', args.receiver_executor], env=env)
        time.sleep(warmup)  # discovery and first samples
        c_sim, c_rx, t0 = cpu_seconds(sim.proc.pid), cpu_seconds(rx.pid), time.monotonic()
        time.sleep(args.duration)
        c_sim2, c_rx2, t1 = cpu_seconds(sim.proc.pid), cpu_seconds(rx.pid), time.monotonic()
        load = load_average()
        rx.wait(timeout=60)
    finally:
        if rx is not None:
            received = stop(rx)
        sim.stop()
    if received.returncode != 0:
        sys.exit(f'receiver failed ({received.returncode}): {(received.output or "")[-2000:]}')
    sent: Dict[int, int] = {}
    with open(trace, encoding='utf-8') as f:
        next(f)
        for line in f:
            tick, ns = line.split(',')
            sent[int(tick)] = int(ns)
    with open(recv_out, encoding='utf-8') as f:
        rows = json.load(f)
    for p in (trace, recv_out):
        os.remove(p)
    floor_cpu, floor_rx_cpu, floor_rows = measure_floor(args, env, warmup, recv_out)
    floor_load = load_average()
    os.rmdir(tmp)

    # Simulator side: intervals between consecutive writes (wall clock), middle of the run.
    ticks = sorted(sent)
    lo, hi = ticks[0] + int(warmup * args.rate), ticks[-1] - int(args.rate)
    window = [t for t in ticks if lo <= t <= hi]
    intervals = [(sent[b] - sent[a]) / 1e3 for a, b in zip(window, window[1:]) if b == a + 1]
    period_us = 1e6 / args.rate
    jitter = [abs(i - period_us) for i in intervals]
    sim_rate = (len(window) - 1) / ((sent[window[-1]] - sent[window[0]]) / 1e9)
    # ROS side, over the same ticks.
    got = [(t, ns) for t, ns in rows if lo <= t <= hi]
    lat = [(ns - sent[t]) / 1e3 for t, ns in got if t in sent]
    ros_rate = (len(got) - 1) / ((got[-1][1] - got[0][1]) / 1e9) if len(got) > 1 else 0.0
    lost = len(window) - len(got)
    lat_p99 = pct(lat, .99) if lat else float('inf')
    dt = t1 - t0
    sim_cpu, rx_cpu = 100 * (c_sim2 - c_sim) / dt, 100 * (c_rx2 - c_rx) / dt
    ratio = sim_cpu / floor_cpu if floor_cpu > 0 else float('inf')

    def met(ok: bool) -> str:
        return 'met' if ok else 'NOT met'

    print(f'PND Adam lowstate benchmark: {args.rate:g} Hz target, {args.duration:g} s measured, '
          f'domain {args.domain}, loopback, load average {load}')
    print(f'simulator publish rate   {sim_rate:9.1f} Hz   ({len(window)} ticks; target '
          f'{args.rate:g} Hz)')
    print(f'simulator period jitter  p50 {pct(jitter, .5):7.1f} us  p99 {pct(jitter, .99):7.1f} us'
          f'  max {max(jitter):8.1f} us')
    print(f'ROS receive rate         {ros_rate:9.1f} Hz   lost {lost} of '
          f'{len(window)} (target 0: {met(lost == 0)})')
    if lat:
        print(f'latency write->callback  p50 {pct(lat, .5):7.1f} us  p99 {lat_p99:7.1f} us'
              f'  max {max(lat):8.1f} us  mean {statistics.mean(lat):.1f} us (target p99 <= '
              f'{TARGET_LATENCY_P99_US:g} us: {met(lat_p99 <= TARGET_LATENCY_P99_US)})')
    print(f'CPU (% of one core)      simulator {sim_cpu:5.1f}   rclpy receiver {rx_cpu:5.1f} '
          f'({args.receiver_executor} executor)')
    print(f'floor (bare rclpy LowState+HandState publisher, {args.rate:g} Hz deadline loop; '
          f'load {floor_load}): {floor_cpu:.1f} % CPU, its receiver {floor_rx_cpu:.1f} %, '
          f'{floor_rows} samples received')
    print(f'simulator CPU {sim_cpu:.1f} % (target <= {TARGET_CPU:g} %), ratio to floor '
          f'{ratio:.1f}x (target <= {TARGET_RATIO:g}x): '
          f'{met(sim_cpu <= TARGET_CPU and ratio <= TARGET_RATIO)}')


if __name__ == '__main__':
    main()
