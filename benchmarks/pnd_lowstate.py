#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""
PND Adam simulator -> ROS 2 benchmark: rt/lowstate rate, latency and CPU.

Measures rate/jitter at the simulator, ROS-side receive rate and one-way latency, and the
CPU of both processes.

Runs the installed simulator (plain Cyclone DDS, loopback config) with --trace-file, and an
rclpy subscriber (rmw_fastrtps_cpp, shipped interop profile) in a second process that stamps
every LowState on arrival. Latency = arrival wall clock - simulator's wall clock just after
write(), matched by tick (same host, same clock).

    python benchmarks/pnd_lowstate.py [--duration 10] [--rate 500] [--domain D]
Needs the workspace sourced (pnd_adam, pnd_adam_sim, pnd_adam_examples installed). The
domain defaults to one from workspace_testing's allocator (held for the run).
"""

import argparse
import json
import os
import statistics
import sys
import tempfile
import time

from workspace_testing import allocate_domain, start, stop


def receiver(seconds, out_path):
    """Record (tick, arrival ns) of every LowState: the rclpy side, in its own process."""
    import rclpy
    from rclpy.qos import qos_profile_sensor_data

    from pnd_adam.msg import LowState

    rclpy.init()
    node = rclpy.create_node('adam_lowstate_bench')
    rows = []
    node.create_subscription(LowState, 'lowstate',
                             lambda m: rows.append((m.tick, time.time_ns())),
                             qos_profile_sensor_data)
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        rclpy.spin_once(node, timeout_sec=0.05)
    node.destroy_node()
    rclpy.shutdown()
    with open(out_path, 'w', encoding='utf-8') as f:
        json.dump(rows, f)


def cpu_seconds(pid):
    with open(f'/proc/{pid}/stat', encoding='utf-8') as f:
        fields = f.read().rsplit(')', 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf('SC_CLK_TCK')


def pct(values, q):
    values = sorted(values)
    return values[min(len(values) - 1, int(q * len(values)))]


def main():
    ap = argparse.ArgumentParser(description=__doc__.strip().splitlines()[0])
    ap.add_argument('--duration', type=float, default=10.0, help='measured seconds')
    ap.add_argument('--rate', type=float, default=500.0)
    ap.add_argument('--domain', type=int, default=None,
                    help='DDS domain (default: a free one from workspace_testing)')
    ap.add_argument('--receiver', nargs=2, metavar=('SECONDS', 'OUT'), help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.receiver:
        receiver(float(args.receiver[0]), args.receiver[1])
        return

    from pnd_adam_examples.fastdds_profile import PROFILE_ENV, profile_path
    from pnd_adam_sim.testing import SimProcess, localhost_env

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
                    str(warmup + args.duration + 1.0), recv_out], env=env)
        time.sleep(warmup)  # discovery and first samples
        c_sim, c_rx, t0 = cpu_seconds(sim.proc.pid), cpu_seconds(rx.pid), time.monotonic()
        time.sleep(args.duration)
        c_sim2, c_rx2, t1 = cpu_seconds(sim.proc.pid), cpu_seconds(rx.pid), time.monotonic()
        rx.wait(timeout=60)
    finally:
        if rx is not None:
            received = stop(rx)
        sim.stop()
    if received.returncode != 0:
        sys.exit(f'receiver failed ({received.returncode}): {received.output[-2000:]}')
    sent = {}
    with open(trace, encoding='utf-8') as f:
        next(f)
        for line in f:
            tick, ns = line.split(',')
            sent[int(tick)] = int(ns)
    with open(recv_out, encoding='utf-8') as f:
        rows = json.load(f)
    for p in (trace, recv_out):
        os.remove(p)
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
    print(f'PND Adam lowstate benchmark: {args.rate:g} Hz target, {args.duration:g} s measured, '
          f'domain {args.domain}, loopback')
    print(f'simulator publish rate   {sim_rate:9.1f} Hz   ({len(window)} ticks)')
    print(f'simulator period jitter  p50 {pct(jitter, .5):7.1f} us  p99 {pct(jitter, .99):7.1f} us'
          f'  max {max(jitter):8.1f} us')
    print(f'ROS receive rate         {ros_rate:9.1f} Hz   lost {len(window) - len(got)} of '
          f'{len(window)}')
    if lat:
        print(f'latency write->callback  p50 {pct(lat, .5):7.1f} us  p99 {pct(lat, .99):7.1f} us'
              f'  max {max(lat):8.1f} us  mean {statistics.mean(lat):.1f} us')
    dt = t1 - t0
    print(f'CPU (% of one core)      simulator {100 * (c_sim2 - c_sim) / dt:5.1f}   '
          f'rclpy receiver {100 * (c_rx2 - c_rx) / dt:5.1f}')


if __name__ == '__main__':
    main()
