#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Benchmark of robstride_sim: prints its figures.

1. Cost of one read/write cycle of the plain-Python core (bus step + read + write) for
   2 and 12 simulated motors, no ROS.
2. The node at its default 500 Hz: ~/robstride_state rate received by a subscriber in
   this process, inter-arrival p50/p99/max, and the node process's CPU use.

Usage: robstride_sim_cycle.py [seconds per node measurement, default 5]
Needs the workspace sourced (robstride_sim, workspace_testing installed); a ROS_DOMAIN_ID
from workspace_testing's allocator, discovery on this host.
"""
import os
import statistics
import sys
import time

from workspace_testing import executable, isolate, start, stop


def core_cycle_cost(n_motors, cycles=5000):
    from robstride_sim.bus import SimBus
    from robstride_sim.hardware import JointConfig, RobstrideHardware
    from robstride_sim.models import MODELS
    from robstride_sim.motor import SimMotor
    joints = [JointConfig(f'j{i}', i + 1, MODELS['RS03'], 1, 50.0, 2.0)
              for i in range(n_motors)]
    bus = SimBus([SimMotor(j.can_id, j.model) for j in joints])
    hw = RobstrideHardware(joints, bus)
    t, dt = 0.0, 0.002
    hw.activate(t)
    start = time.perf_counter()
    for _ in range(cycles):
        t += dt
        bus.step(dt, t)
        hw.read(t)
        hw.write(t)
    return (time.perf_counter() - start) / cycles * 1e6


def _cpu_seconds(pid):
    with open(f'/proc/{pid}/stat') as f:
        fields = f.read().rsplit(')', 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf('SC_CLK_TCK')


def node_rate(seconds):
    isolate()                   # before rclpy reads the environment
    import rclpy
    from robstride_interfaces.msg import RobstrideState
    from robstride_sim.qos import STATE_QOS
    proc = start([executable('robstride_sim', 'robstride_sim_node'), '--ros-args', '-r',
                  '__ns:=/rs_bench'])
    rclpy.init()
    node = rclpy.create_node('rs_bench_sub')
    arrivals = []
    node.create_subscription(RobstrideState, '/rs_bench/robstride_hardware_interface/'
                             'robstride_state', lambda m: arrivals.append(time.monotonic()),
                             STATE_QOS)
    try:
        deadline = time.monotonic() + 30
        while not arrivals and time.monotonic() < deadline:
            rclpy.spin_once(node, timeout_sec=0.1)
        if not arrivals:
            raise SystemExit('node did not publish within 30 s: ' + proc.output()[-2000:])
        end = time.monotonic() + 1.0          # warm-up
        while time.monotonic() < end:
            rclpy.spin_once(node, timeout_sec=0.01)
        arrivals.clear()
        cpu0, t0 = _cpu_seconds(proc.pid), time.monotonic()
        end = t0 + seconds
        while time.monotonic() < end:
            rclpy.spin_once(node, timeout_sec=0.01)
        cpu = (_cpu_seconds(proc.pid) - cpu0) / (time.monotonic() - t0) * 100
        gaps = sorted((b - a) * 1e3 for a, b in zip(arrivals, arrivals[1:]))
        return (len(arrivals) / seconds, statistics.median(gaps),
                gaps[int(0.99 * (len(gaps) - 1))], gaps[-1], cpu)
    finally:
        node.destroy_node()
        rclpy.try_shutdown()
        stop(proc)


def main():
    seconds = float(sys.argv[1]) if len(sys.argv) > 1 else 5.0
    for n in (2, 12):
        print(f'core cycle (step+read+write), {n:2d} motors: {core_cycle_cost(n):7.1f} us')
    rate, p50, p99, worst, cpu = node_rate(seconds)
    print(f'node @500 Hz, 2 motors, {seconds:g} s: state received {rate:.1f} Hz, '
          f'gap p50 {p50:.2f} ms p99 {p99:.2f} ms max {worst:.2f} ms, node CPU {cpu:.1f} %')


if __name__ == '__main__':
    main()
