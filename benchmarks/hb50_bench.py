#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Benchmark of the simulated HB50 stack (a script, not a test).

Starts the stack (three processes, or the composed `hb50_stack`), lets it stand up, then for
--duration seconds records every message of the 500 Hz / 10 Hz topics and prints per topic:
rate, period jitter p50/p99/max (|interval - nominal period|, from header stamps = publisher
timing, and from receipt times), sequence gaps, one-way latency stamp -> receipt p50/p99, CPU %
of one core per process; then measures command -> applied latency.

Sequence gaps: the messages carry no sequence number (frame_id has a meaning), so a gap is
counted from header stamps: an interval of k nominal periods means k-1 missing messages.
BridgeState has no header: its gaps and jitter come from receipt times only.
Command -> applied: the benchmark briefly takes over as a custom source (>= 10 Hz), copying
control_node's command and toggling the brake of fr_j0; a braked joint reports exactly zero
velocity and effort, so the first BridgeData showing the toggle marks the applied tick. The
latency is that BridgeData's stamp minus the command's publish time (same host clock).

Usage: hb50_bench.py [--duration 30] [--composed] [--executor events|single|multi]
                     [--loop-mode thread|timer] [--busy-wait S] [--rt-priority N] [--domain 39]
Needs the workspace sourced (hb50_nodes installed).
"""

import argparse
import os
import random
import subprocess
import sys
import tempfile
import threading
import time

import numpy as np


def parse():
    p = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    p.add_argument('--duration', type=float, default=30.0, help='measurement window (s)')
    p.add_argument('--warmup', type=float, default=4.0, help='stand-up time before measuring')
    p.add_argument('--composed', action='store_true', help='run hb50_stack (one process)')
    p.add_argument('--executor', default='events', choices=('events', 'single', 'multi'))
    p.add_argument('--loop-mode', default='thread', choices=('thread', 'timer'))
    p.add_argument('--busy-wait', type=float, default=None, help='busy_wait parameter (s)')
    p.add_argument('--rt-priority', type=int, default=None,
                   help='rt_priority parameter (SCHED_FIFO of the 500 Hz loop threads)')
    p.add_argument('--domain', type=int, default=None, help='ROS_DOMAIN_ID (default: 30-39)')
    return p.parse_args()


def cpu_seconds(pid):
    with open(f'/proc/{pid}/stat') as f:
        fields = f.read().rsplit(')', 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf('SC_CLK_TCK')


def pct(values, q):
    return float(np.percentile(values, q)) if len(values) else float('nan')


def main():
    args = parse()
    os.environ['ROS_DOMAIN_ID'] = str(args.domain if args.domain is not None
                                      else random.randint(30, 39))
    os.environ.setdefault('ROS_AUTOMATIC_DISCOVERY_RANGE', 'LOCALHOST')
    os.environ['HB50_EXECUTOR'] = args.executor

    import rclpy
    from ament_index_python.packages import get_package_prefix
    from hb50_commons.msg import BridgeData, BridgeState, JointCommand, RobotState
    from rclpy.experimental import EventsExecutor

    from hb50_nodes import qos

    lib = os.path.join(get_package_prefix('hb50_nodes'), 'lib', 'hb50_nodes')
    ros_args = ['--ros-args', '-p', f'loop_mode:={args.loop_mode}', '--log-level', 'warn']
    if args.busy_wait is not None:
        ros_args += ['-p', f'busy_wait:={args.busy_wait}']
    if args.rt_priority is not None:
        ros_args += ['-p', f'rt_priority:={args.rt_priority}']
    if args.composed:
        exes = ['hb50_stack']
    else:
        exes = ['bridge_node', 'control_node', 'heartbeat_monitor']
    # Node stderr goes to files: at exit a 500 Hz node logs the ticks it skipped after stalls,
    # which tells publisher-side gaps from messages lost on the way.
    logs = {exe: tempfile.TemporaryFile(mode='w+') for exe in exes}
    procs = {exe: subprocess.Popen([os.path.join(lib, exe)] + (
        ros_args if exe != 'heartbeat_monitor' else ['--ros-args', '--log-level', 'warn']),
        stderr=logs[exe]) for exe in exes}

    rclpy.init()
    node = rclpy.create_node('hb50_bench')
    topics = {qos.BRIDGE_DATA: BridgeData, qos.BRIDGE_STATE: BridgeState,
              qos.BRIDGE_STATE_10HZ: BridgeState, qos.JOINT_COMMAND: JointCommand,
              qos.ROBOT_STATE: RobotState, qos.ROBOT_STATE_10HZ: RobotState}
    records = {t: [] for t in topics}
    recording = threading.Event()
    latest_cmd = {}
    probe = {'pending': None, 'results': []}

    def make_cb(topic):
        has_header = topic not in (qos.BRIDGE_STATE, qos.BRIDGE_STATE_10HZ)
        rec = records[topic]

        def cb(msg):
            now = time.time_ns()
            if topic == qos.JOINT_COMMAND and msg.source_node == 'control_node':
                latest_cmd['msg'] = msg
            if topic == qos.BRIDGE_DATA and probe['pending'] is not None:
                sent, brake_on = probe['pending']
                braked = msg.joint_velocity[0] == 0.0 and msg.joint_effort[0] == 0.0
                if braked == brake_on:
                    stamp = msg.header.stamp.sec * 1_000_000_000 + msg.header.stamp.nanosec
                    probe['results'].append((stamp - sent) * 1e-6)
                    probe['pending'] = None
            if recording.is_set():
                if topic == qos.JOINT_COMMAND and msg.source_node != 'control_node':
                    return
                stamp = (msg.header.stamp.sec * 1_000_000_000 + msg.header.stamp.nanosec
                         if has_header else 0)
                rec.append((now, stamp))
        return cb

    for topic, msg_type in topics.items():
        node.create_subscription(msg_type, topic, make_cb(topic), qos.profile_for(topic))
    cmd_pub = node.create_publisher(JointCommand, qos.JOINT_COMMAND, qos.MAB_RT)
    executor = EventsExecutor()
    executor.add_node(node)
    stop = threading.Event()

    def spin():
        while not stop.is_set():
            executor.spin_once(timeout_sec=0.05)
    spinner = threading.Thread(target=spin, daemon=True)
    spinner.start()
    try:
        time.sleep(args.warmup)
        pids = {exe: p.pid for exe, p in procs.items()}
        pids['bench (subscriber)'] = os.getpid()
        cpu0 = {k: cpu_seconds(pid) for k, pid in pids.items()}
        t0 = time.monotonic()
        recording.set()
        time.sleep(args.duration)
        recording.clear()
        wall = time.monotonic() - t0
        cpu = {k: 100.0 * (cpu_seconds(pid) - cpu0[k]) / wall for k, pid in pids.items()}

        # Command -> applied latency: take over with brake toggles on fr_j0 for ~4 s.
        for i in range(400):
            base = latest_cmd.get('msg')
            if base is not None:
                brake_on = (i // 5) % 2 == 1
                base.source_node = 'hb50_bench'
                base.brake = [brake_on] + [False] * 11
                if i % 5 == 0 and i >= 10 and probe['pending'] is None:
                    probe['pending'] = (time.time_ns(), brake_on)
                base.header.stamp.sec, base.header.stamp.nanosec = divmod(time.time_ns(),
                                                                          1_000_000_000)
                cmd_pub.publish(base)
            time.sleep(0.01)
    finally:
        stop.set()
        spinner.join(2.0)
        for p in procs.values():
            p.send_signal(2)
        for p in procs.values():
            try:
                p.wait(5.0)
            except subprocess.TimeoutExpired:
                p.kill()
        executor.shutdown(timeout_sec=1.0)
        node.destroy_node()
        rclpy.try_shutdown()

    print(f'\nHB50 stack benchmark: {"composed hb50_stack" if args.composed else "3 processes"},'
          f' executor={args.executor}, loop_mode={args.loop_mode}, {args.duration:.0f} s, '
          f'busy_wait={args.busy_wait}, rt_priority={args.rt_priority}, {os.cpu_count()} CPUs, '
          f'ROS_DOMAIN_ID={os.environ["ROS_DOMAIN_ID"]}')
    head = (f'{"topic":26s} {"msgs":>6s} {"rate Hz":>8s} {"jit p50":>8s} {"p99":>7s} {"max":>7s}'
            f'  {"rx jit p99":>10s} {"rx max":>7s} {"gaps":>5s} {"lat p50":>8s} {"p99":>7s}')
    print(head + '\n' + '(jitter and latency in ms; jit = stamp intervals, rx = receipt)')
    for topic in topics:
        rate_nominal = qos.TOPICS[topic][2]
        period = 1.0 / rate_nominal
        data = np.array(records[topic], dtype=np.int64).reshape(-1, 2)
        n = len(data)
        if n < 3:
            print(f'{topic:26s} {n:6d}   (too few messages)')
            continue
        rx = data[:, 0] * 1e-9
        has_stamp = data[0, 1] != 0
        pub = data[:, 1] * 1e-9 if has_stamp else rx
        intervals = np.diff(pub)
        rate = (n - 1) / (pub[-1] - pub[0])
        jit = np.abs(intervals - period) * 1e3
        rx_jit = np.abs(np.diff(rx) - period) * 1e3
        gaps = int(np.sum(np.maximum(np.rint(intervals / period) - 1, 0)))
        if has_stamp:
            lat = (data[:, 0] - data[:, 1]) * 1e-6
            lat_s = f'{pct(lat, 50):8.3f} {pct(lat, 99):7.3f}'
        else:
            lat_s = f'{"n/a":>8s} {"n/a":>7s}'
        jit_s = (f'{pct(jit, 50):8.3f} {pct(jit, 99):7.3f} {jit.max():7.3f}' if has_stamp
                 else f'{"(rx)":>8s} {"":7s} {"":7s}')
        print(f'{topic:26s} {n:6d} {rate:8.2f} {jit_s}  {pct(rx_jit, 99):10.3f} '
              f'{rx_jit.max():7.3f} {gaps:5d} {lat_s}')
    # Receiver-side losses: joint_command and robot_state carry the same stamp every tick, so a
    # stamp present on one and missing on the other was published and lost on the way.
    cmd_stamps = {s for _, s in records[qos.JOINT_COMMAND]}
    state_stamps = {s for _, s in records[qos.ROBOT_STATE]}
    if cmd_stamps and state_stamps:
        lo = max(min(cmd_stamps), min(state_stamps))
        hi = min(max(cmd_stamps), max(state_stamps))
        lost_cmd = sum(1 for s in state_stamps - cmd_stamps if lo <= s <= hi)
        lost_state = sum(1 for s in cmd_stamps - state_stamps if lo <= s <= hi)
        print(f'\nlost in transit (stamp seen on the sibling topic only): '
              f'joint_command {lost_cmd}, robot_state {lost_state}')
    print('publisher side (node logs at exit, over the whole run incl. warm-up):')
    for exe, log in logs.items():
        log.seek(0)
        lines = [line.strip() for line in log if 'ticks skipped' in line]
        print(f'  {exe:22s} ' + ('; '.join(lines) if lines else 'no tick skipped'))
        log.close()
    print('\nCPU % of one core over the window:')
    for k, v in cpu.items():
        print(f'  {k:22s} {v:6.1f}')
    res = probe['results']
    if res:
        print(f'\ncommand -> applied (publish -> stamp of first BridgeData showing it), '
              f'{len(res)} samples: p50 {pct(res, 50):.3f} ms, p99 {pct(res, 99):.3f} ms, '
              f'max {max(res):.3f} ms')
    else:
        print('\ncommand -> applied: no sample (no control_node command seen?)')
    return 0


if __name__ == '__main__':
    sys.exit(main())
