#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""
Benchmark of robstride_sim: prints its figures beside the issue-12 targets and a floor.

1. Cost of one read/write cycle of the plain-Python core (bus step + read + write) for
   2 and 12 simulated motors, no ROS.
2. The node at its default 500 Hz with 2 and with 12 simulated motors: ~/robstride_state
   rate received by a subscriber in this process, inter-arrival p50/p99/max, and the node
   process's CPU use.
3. The floor, measured in the same run right after each node: a bare rclpy node in its own
   process publishing the same two message types (RobstrideState and JointState, as many
   joints) from a 500 Hz timer on the same executor as the node, received the same way.
   Target (issue 12): node CPU <= 10 % of one core, i.e. <= 3x the floor.

Usage: robstride_sim_cycle.py [seconds per node measurement, default 5] [--executor single]
(--executor names the node's executor when measuring an older build: the floor uses it.)
Needs the workspace sourced (robstride_sim, workspace_testing installed); a ROS_DOMAIN_ID
from workspace_testing's allocator, discovery on this host.
"""
import argparse
import os
import signal
import statistics
import sys
import tempfile
import threading
import time
from typing import Any, List, Sequence, Tuple

from _bench_common import params_file, spin_then_close
from _cpu_sampling import CpuWindow, load
from workspace_testing import executable, isolate, start, stop

RATE_HZ = 500.0
# The executor robstride_sim_node spins (node.py); the floor spins the same one.
NODE_EXECUTOR = 'events'
TARGET_CPU = 10.0           # % of one core
TARGET_RATIO = 3.0          # x the floor


def core_cycle_cost(n_motors: int, cycles: int = 5000) -> float:
    """Return the mean cost in us of one step+read+write cycle with n_motors."""
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


def make_executor(kind: str) -> Any:
    """Return an rclpy executor: events or single."""
    if kind == 'events':
        from rclpy.experimental import EventsExecutor
        return EventsExecutor()
    from rclpy.executors import SingleThreadedExecutor
    return SingleThreadedExecutor()


def floor_node(n_joints: int, executor_kind: str) -> None:
    """Publish RobstrideState + JointState at 500 Hz from a bare rclpy node: the floor."""
    import rclpy
    from rclpy.signals import SignalHandlerOptions
    from robstride_interfaces.msg import RobstrideState
    from robstride_sim.qos import STATE_QOS
    from sensor_msgs.msg import JointState
    done = threading.Event()
    for sig in (signal.SIGINT, signal.SIGTERM):
        signal.signal(sig, lambda *_: done.set())
    rclpy.init(signal_handler_options=SignalHandlerOptions.NO)
    node = rclpy.create_node('robstride_hardware_interface', namespace='/rs_floor')
    state_pub = node.create_publisher(RobstrideState, '~/robstride_state', STATE_QOS)
    js_pub = node.create_publisher(JointState, 'joint_states', STATE_QOS)
    state = RobstrideState(id=list(range(1, n_joints + 1)), enabled=[True] * n_joints,
                           run_state=[2] * n_joints, fault_bits=[0] * n_joints)
    js = JointState(name=[f'joint_{i + 1}' for i in range(n_joints)],
                    position=[0.0] * n_joints, velocity=[0.0] * n_joints,
                    effort=[0.0] * n_joints)

    def tick() -> None:
        stamp = node.get_clock().now().to_msg()
        state.header.stamp = stamp
        js.header.stamp = stamp
        state_pub.publish(state)
        js_pub.publish(js)

    node.create_timer(1.0 / RATE_HZ, tick)
    executor = make_executor(executor_kind)
    executor.add_node(node)
    spin_then_close(executor, node, done.is_set, 0.1)


def measure(node: Any, cmd: Sequence[str], namespace: str,
            seconds: float) -> Tuple[float, float, float, float, float]:
    """Start cmd, receive its robstride_state; return (rate, gap p50, p99, max ms, CPU %)."""
    from robstride_interfaces.msg import RobstrideState
    import rclpy
    from robstride_sim.qos import STATE_QOS
    proc = start(cmd)
    arrivals: List[float] = []
    sub = node.create_subscription(
        RobstrideState, f'{namespace}/robstride_hardware_interface/robstride_state',
        lambda m: arrivals.append(time.monotonic()), STATE_QOS)
    try:
        deadline = time.monotonic() + 30
        while not arrivals and time.monotonic() < deadline:
            rclpy.spin_once(node, timeout_sec=0.1)
        if not arrivals:
            raise SystemExit('no robstride_state within 30 s: ' + proc.output()[-2000:])
        end = time.monotonic() + 1.0          # warm-up
        while time.monotonic() < end:
            rclpy.spin_once(node, timeout_sec=0.01)
        arrivals.clear()
        window = CpuWindow([proc.pid])
        end = time.monotonic() + seconds
        while time.monotonic() < end:
            rclpy.spin_once(node, timeout_sec=0.01)
        cpu, = window.percent()
        gaps = sorted((b - a) * 1e3 for a, b in zip(arrivals, arrivals[1:]))
        return (len(arrivals) / seconds, statistics.median(gaps),
                gaps[int(0.99 * (len(gaps) - 1))], gaps[-1], cpu)
    finally:
        node.destroy_subscription(sub)
        stopped = stop(proc)
        if stopped.returncode != 0:
            print(f'  ({cmd[0]} exited {stopped.returncode})')


def verdict(cpu: float, floor: float) -> Tuple[float, str]:
    """Return (ratio to the floor, 'met' or 'NOT met')."""
    ratio = cpu / floor if floor > 0 else float('inf')
    met = cpu <= TARGET_CPU and ratio <= TARGET_RATIO
    return ratio, ('met' if met else 'NOT met')


def main() -> None:
    """Run the benchmark (or, with the hidden --floor, the floor node)."""
    ap = argparse.ArgumentParser(description=__doc__.strip().splitlines()[0])
    ap.add_argument('seconds', nargs='?', type=float, default=5.0,
                    help='seconds per node measurement')
    ap.add_argument('--executor', choices=('events', 'single'), default=NODE_EXECUTOR,
                    help="the node's executor, used by the floor (default: %(default)s)")
    ap.add_argument('--floor', nargs=2, metavar=('JOINTS', 'EXECUTOR'), help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.floor:
        floor_node(int(args.floor[0]), args.floor[1])
        return
    seconds = args.seconds
    for n in (2, 12):
        print(f'core cycle (step+read+write), {n:2d} motors: {core_cycle_cost(n):7.1f} us '
              f'(500 Hz budget at {TARGET_CPU:g} % of a core: {1e4 * TARGET_CPU / RATE_HZ:.0f} '
              f'us per tick for everything)')
    isolate()                   # before rclpy reads the environment
    import rclpy
    rclpy.init()
    node = rclpy.create_node('rs_bench_sub')
    floor_cmd = [sys.executable, os.path.abspath(__file__), '--floor']
    try:
        with tempfile.TemporaryDirectory(prefix='rs_bench_') as tmp:
            for n in (2, 12):
                cmd = [executable('robstride_sim', 'robstride_sim_node'), '--ros-args',
                       '--params-file', params_file(n, tmp), '-r', '__ns:=/rs_bench']
                rate, p50, p99, worst, cpu = measure(node, cmd, '/rs_bench', seconds)
                node_load = load(None)
                f_rate, _, f_p99, _, f_cpu = measure(
                    node, floor_cmd + [str(n), args.executor], '/rs_floor', seconds)
                ratio, met = verdict(cpu, f_cpu)
                print(f'node @500 Hz, {n:2d} motors, {seconds:g} s (load {node_load}): state '
                      f'received {rate:.1f} Hz, gap p50 {p50:.2f} ms p99 {p99:.2f} ms max '
                      f'{worst:.2f} ms, node CPU {cpu:.1f} %')
                print(f'  floor (bare rclpy 500 Hz publisher of RobstrideState + JointState, '
                      f'{n} joints, {args.executor} executor; load {load(None)}): {f_cpu:.1f} % '
                      f'CPU, received {f_rate:.1f} Hz, gap p99 {f_p99:.2f} ms')
                print(f'  node CPU {cpu:.1f} % (target <= {TARGET_CPU:g} %), ratio to floor '
                      f'{ratio:.1f}x (target <= {TARGET_RATIO:g}x): {met}')
    finally:
        node.destroy_node()
        rclpy.try_shutdown()


if __name__ == '__main__':
    main()
