#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""
Benchmark of the state publishers: CPU at their default rates beside a bare raw subscriber.

For each robot, starts its source (HB50: bridge_node + control_node with the shipped
parameters and the simple physics, 500 Hz bridge_data and robot_state; PND Adam: adam_sim
with its shipped MuJoCo config, 500 Hz lowstate), then measures over `--duration` s the CPU
of the state publisher at its defaults (hb50_nodes state_publisher_node 10 Hz,
pnd_adam_examples adam_state_publisher 100 Hz) and of the floor measured in the same run: a
bare rclpy process with raw subscriptions of the same topics and QoS, a SingleThreadedExecutor
and nothing else (what any subscriber of those 500 Hz topics pays). Prints each figure, the
ratio to its floor, the issue-23 target (no more than 2x the floor) and the load average.

Usage: state_publisher_bench.py [--duration S] [--domain N]
Needs the workspace sourced.
"""
import argparse
import os
import sys
import time
from typing import Dict, List, Mapping

from _cpu_sampling import cpu_seconds, load
import workspace_testing as wt

TARGET_RATIO = 2.0
FLOOR = {
    'hb50': [('/hb50/bridge_data', 'hb50_commons.msg', 'BridgeData'),
             ('/hb50/robot_state', 'hb50_commons.msg', 'RobotState')],
    'pnd': [('/lowstate', 'pnd_adam.msg', 'LowState')],
}


def floor_main(robot: str) -> int:
    """Run the floor: raw subscriptions of `robot`'s source topics until SIGINT/SIGTERM."""
    import importlib
    import signal

    import rclpy
    from rclpy.executors import SingleThreadedExecutor
    from rclpy.qos import qos_profile_sensor_data
    stop: List[int] = []
    signal.signal(signal.SIGINT, lambda *_: stop.append(1))
    signal.signal(signal.SIGTERM, lambda *_: stop.append(1))
    if robot == 'pnd':
        from pnd_adam_examples.fastdds_profile import use_interop_profile
        use_interop_profile()
    rclpy.init(signal_handler_options=rclpy.signals.SignalHandlerOptions.NO)
    node = rclpy.create_node('state_publisher_floor')
    count = [0]
    for topic, module, name in FLOOR[robot]:
        msg_type = getattr(importlib.import_module(module), name)
        node.create_subscription(msg_type, topic, lambda _d: count.__setitem__(0, count[0] + 1),
                                 qos_profile_sensor_data, raw=True)
    executor = SingleThreadedExecutor()
    executor.add_node(node)
    while not stop:
        executor.spin_once(timeout_sec=0.1)
    print(f'floor received {count[0]}', flush=True)
    executor.shutdown()
    node.destroy_node()
    rclpy.try_shutdown()
    return 0


def measure(procs: Mapping[str, wt.NodeProcess], duration: float) -> Dict[str, float]:
    """Return {name: % of one core} of `procs` over `duration` s."""
    before = {n: cpu_seconds(p.pid) for n, p in procs.items()}
    t0 = time.monotonic()
    time.sleep(duration)
    dt = time.monotonic() - t0
    return {n: 100.0 * (cpu_seconds(p.pid) - before[n]) / dt for n, p in procs.items()}


def sources(robot: str, env: Dict[str, str]) -> List[wt.NodeProcess]:
    from ament_index_python.packages import get_package_share_directory
    if robot == 'hb50':
        params = os.path.join(get_package_share_directory('hb50_nodes'), 'config', 'hb50.yaml')
        return [wt.start([wt.executable('hb50_nodes', n), '--ros-args', '--params-file',
                          params, '-p', 'physics_engine:=simple'], env=env)
                for n in ('bridge_node', 'control_node')]
    from workspace_testing.adam_sim import localhost_env
    config = os.path.join(get_package_share_directory('pnd_adam_sim'), 'config',
                          'adam_sim.yaml')
    return [wt.start([wt.executable('pnd_adam_sim', 'adam_sim'), '--domain',
                      env['ROS_DOMAIN_ID'], '--config', config],
                     env=localhost_env(int(env['ROS_DOMAIN_ID']), env))]


def run(robot: str, domain: int, duration: float) -> None:
    env = wt.localhost_env(domain)
    if robot == 'hb50':
        publisher = [wt.executable('hb50_nodes', 'state_publisher_node')]
        label = 'hb50_nodes state_publisher_node (10 Hz)'
    else:
        publisher = [wt.executable('pnd_adam_examples', 'adam_state_publisher')]
        label = 'pnd_adam_examples adam_state_publisher (100 Hz)'
    started = sources(robot, env)
    procs: Dict[str, wt.NodeProcess] = {}
    try:
        time.sleep(3.0)     # the sources up and discovered
        procs['publisher'] = wt.start(publisher, env=env)
        procs['floor'] = wt.start([sys.executable, os.path.abspath(__file__), '--floor', robot],
                                  env=env)
        time.sleep(3.0)     # both subscribed
        cpu = measure(procs, duration)
    finally:
        outputs = {n: wt.stop(p).output or '' for n, p in procs.items()}
        for p in started:
            wt.stop(p)
    received = [line for line in outputs.get('floor', '').splitlines()
                if line.startswith('floor received')]
    ratio = cpu['publisher'] / cpu['floor'] if cpu['floor'] > 0 else float('inf')
    verdict = 'ok' if ratio <= TARGET_RATIO else 'over'
    print(f'{label}: {cpu["publisher"]:.1f} % of a core; floor (raw subscriber of the same '
          f'topics) {cpu["floor"]:.1f} %; ratio {ratio:.2f} (target <= {TARGET_RATIO:.0f}x '
          f'the floor: {verdict}); {received[-1] if received else "floor received ?"} '
          f'samples; load {load(None)}', flush=True)


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[1])
    p.add_argument('--duration', type=float, default=20.0, help='seconds per measurement')
    p.add_argument('--domain', type=int, help='ROS_DOMAIN_ID (default: allocated)')
    p.add_argument('--floor', choices=sorted(FLOOR), help=argparse.SUPPRESS)
    args = p.parse_args()
    if args.floor:
        return floor_main(args.floor)
    domain = args.domain if args.domain is not None else wt.allocate_domain()
    print(f'state publishers, {args.duration:.0f} s each, load {load(None)}', flush=True)
    for robot in ('hb50', 'pnd'):
        run(robot, domain, args.duration)
    return 0


if __name__ == '__main__':
    sys.exit(main())
