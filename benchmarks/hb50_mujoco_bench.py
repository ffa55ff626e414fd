#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""
HB50 physics engines at 500 Hz: real-time factor and bridge_node CPU, beside a floor.

Measured in this order:
1. floor: a Python thread sleeping to absolute 500 Hz deadlines and doing nothing else, for
   --duration s (the CPU any 500 Hz loop here costs at least);
2. capacity, no ROS: the engine's step(cmd, 2 ms) of the standing robot stepped unpaced in
   this process for --steps ticks, per engine, and MuJoCo's bare mj_step x physics_substeps on
   the same model: real-time factor = simulated s / wall s (CPU s in brackets);
3. bridge_node with physics_engine:=mujoco and :=simple (control_node beside it, standing),
   --duration s each after --warmup s: paced real-time factor = BridgeData received x 2 ms /
   wall s (a received message is one simulated period; the few lost in transit count as
   missing, so this is a lower bound) and bridge_node CPU % of one core (/proc utime+stime).
Target: real-time factor >= 1.0 at 500 Hz (a paced loop cannot run ahead: >= 0.99 there);
the performance issue's <= 10 % CPU per 500 Hz node applies to the default engine.

    python benchmarks/hb50_mujoco_bench.py [--duration 8] [--warmup 5] [--steps 3000]
Needs the workspace sourced (hb50_nodes installed).
"""

import argparse
import os
import subprocess
import sys
import threading
import time
from typing import Any, Dict, List, Tuple

from _bench_common import deadline_loop, spin_in_thread
from _cpu_sampling import cpu_seconds
from workspace_testing import allocate_domain, stop as stop_node

RATE = 500.0
PERIOD = 1.0 / RATE


def thread_cpu() -> float:
    return time.clock_gettime(time.CLOCK_THREAD_CPUTIME_ID)


def floor(seconds: float) -> float:
    """CPU % of one core of a bare 500 Hz deadline loop (on its own thread)."""
    result: Dict[str, float] = {}

    def loop() -> None:
        cpu0 = thread_cpu()
        _, t0 = deadline_loop(PERIOD, seconds)
        result['cpu'] = 100.0 * (thread_cpu() - cpu0) / (time.monotonic() - t0)
    worker = threading.Thread(target=loop)
    worker.start()
    worker.join()
    return result['cpu']


def capacity(steps: int) -> Dict[str, Tuple[float, float]]:
    """Unpaced real-time factors: {name: (rtf by wall, rtf by CPU)}."""
    import mujoco
    import numpy as np

    from hb50_nodes.control_core import ControlConfig, ControlCore
    from hb50_nodes.kinematics import LegGeometry
    from hb50_nodes.physics import make_sim, SimConfig
    from hb50_nodes.validation import ValidCommand

    geo = LegGeometry()
    stand = ControlCore(ControlConfig(), geo).stand_pose()
    n = 12
    cmd = ValidCommand('bench', np.full(n, 60.0), np.full(n, 2.0), stand, np.zeros(n),
                       np.zeros(n), np.zeros(n, dtype=bool))
    out: Dict[str, Tuple[float, float]] = {}
    for engine in ('mujoco', 'simple'):
        sim = make_sim(SimConfig(physics_engine=engine), geo)
        for _ in range(1500):          # stand up first: measure the standing robot
            sim.step(cmd, PERIOD)
        cpu0, t0 = time.process_time(), time.perf_counter()
        for _ in range(steps):
            sim.step(cmd, PERIOD)
        wall, cpu = time.perf_counter() - t0, time.process_time() - cpu0
        name = f"{engine} engine step (bridge_node's physics)"
        out[name] = (steps * PERIOD / wall, steps * PERIOD / cpu)
        if engine == 'mujoco':
            m, d, sub = sim.model, sim.data, sim.cfg.physics_substeps
            cpu0, t0 = time.process_time(), time.perf_counter()
            for _ in range(steps):
                mujoco.mj_step(m, d, sub)
            wall, cpu = time.perf_counter() - t0, time.process_time() - cpu0
            name = f'bare mj_step x {sub} (MuJoCo alone)'
            out[name] = (steps * PERIOD / wall, steps * PERIOD / cpu)
    return out


def run_stack(engine: str, warmup: float, duration: float) -> Tuple[float, float, float]:
    """(paced real-time factor, bridge_node CPU %, control_node CPU %) for one engine."""
    import rclpy
    from ament_index_python.packages import get_package_prefix
    from hb50_commons.msg import BridgeData
    from rclpy.experimental import EventsExecutor

    from hb50_nodes import qos, topics as table

    hb50 = table.absolute()     # the topics' names in /hb50
    lib = os.path.join(get_package_prefix('hb50_nodes'), 'lib', 'hb50_nodes')
    quiet = ['--ros-args', '--log-level', 'warn']
    bridge = subprocess.Popen([os.path.join(lib, 'bridge_node')] + quiet +
                              ['-p', f'physics_engine:={engine}'])
    control = subprocess.Popen([os.path.join(lib, 'control_node')] + quiet)
    context = rclpy.Context()
    context.init()
    node = rclpy.create_node('hb50_mujoco_bench', context=context)
    received: List[int] = []
    counting = threading.Event()

    def on_data(msg: Any) -> None:
        if counting.is_set():
            received.append(1)
    node.create_subscription(BridgeData, hb50.BRIDGE_DATA, on_data, qos.MAB_RT)
    executor = EventsExecutor(context=context)
    executor.add_node(node)
    stop, spinner = spin_in_thread(executor, 0.05)
    try:
        time.sleep(warmup)
        cpu0 = (cpu_seconds(bridge.pid), cpu_seconds(control.pid))
        t0 = time.monotonic()
        counting.set()
        time.sleep(duration)
        counting.clear()
        wall = time.monotonic() - t0
        cpu1 = (cpu_seconds(bridge.pid), cpu_seconds(control.pid))
    finally:
        stop.set()
        spinner.join(2.0)
        for proc in (control, bridge):
            stop_node(proc)
        executor.shutdown(timeout_sec=1.0)
        node.destroy_node()
        context.try_shutdown()
    return (len(received) * PERIOD / wall, 100.0 * (cpu1[0] - cpu0[0]) / wall,
            100.0 * (cpu1[1] - cpu0[1]) / wall)


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__.strip().split('\n')[0])
    p.add_argument('--duration', type=float, default=8.0, help='s per paced measurement')
    p.add_argument('--warmup', type=float, default=5.0, help='s to stand up before measuring')
    p.add_argument('--steps', type=int, default=3000, help='ticks per capacity measurement')
    p.add_argument('--domain', type=int, default=None,
                   help='ROS_DOMAIN_ID (default: a free one from workspace_testing)')
    args = p.parse_args()
    os.environ['ROS_DOMAIN_ID'] = str(args.domain if args.domain is not None
                                      else allocate_domain())
    os.environ.setdefault('ROS_AUTOMATIC_DISCOVERY_RANGE', 'LOCALHOST')

    print(f'HB50 physics engines at {RATE:.0f} Hz ({os.cpu_count()} CPUs, '
          f'ROS_DOMAIN_ID={os.environ["ROS_DOMAIN_ID"]}); target: real-time factor >= 1.0')
    floor_cpu = floor(args.duration)
    print(f'floor: bare 500 Hz deadline loop, CPU {floor_cpu:.1f} % of one core')
    print(f'\ncapacity, unpaced, no ROS ({args.steps} ticks of {PERIOD * 1e3:.0f} ms):')
    for name, (rtf, rtf_cpu) in capacity(args.steps).items():
        print(f'  {name:42s} real-time factor {rtf:7.1f}  (per CPU s {rtf_cpu:7.1f})')
    print(f'\nbridge_node + control_node, paced, {args.duration:.0f} s after {args.warmup:.0f} s '
          f'stand-up:')
    from hb50_nodes.physics import ENGINES
    for engine in ENGINES:
        rtf, bridge_cpu, control_cpu = run_stack(engine, args.warmup, args.duration)
        print(f'  physics_engine={engine:6s}  real-time factor {rtf:5.3f}  bridge_node CPU '
              f'{bridge_cpu:5.1f} %  (control_node {control_cpu:5.1f} %, floor '
              f'{floor_cpu:.1f} %, target <= 10 %)')
    return 0


if __name__ == '__main__':
    sys.exit(main())
