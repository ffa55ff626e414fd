#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""
Issue 40: the simulators' CPU with their stack's traffic, beside the C floor and rclpy's.

For each simulator, three rows measured alternately --repeat times (medians):

- node: the simulator itself (robstride_sim_node with 2 and with 12 motors, adam_sim on
  MuJoCo with its shipped config, aimrt_mujoco_sim), fed at 500 Hz as its stack feeds it
  (joint commands: rcl_floor publishing a valid command; aimrt_mujoco_sim: HTTP POSTs of
  a valid JointCommand) and read by an observer (rcl_floor subscribed to its outputs; for
  aimrt_mujoco_sim an HTTP sink answering 200);
- c: the C floor (benchmarks/rcl_floor) with the same publishers (same types and topics,
  publishing the node's bytes pre-serialized, at its rates) and subscriptions (taken in an
  rcl wait set), fed and observed the same way;
- take: rclpy's take-in-tick floor: the same in Python, no executor: the tick publishes
  and takes every waiting sample (handle.take_message), then sleeps to the next deadline.

adam_sim speaks plain Cyclone DDS: its floors use the same DDS topics through rcl on Fast
DDS (the interop profile of pnd_adam_examples). aimrt_mujoco_sim speaks HTTP: its floors are
the rcl equivalent of its traffic (three state topics of the same sizes every 5th tick of a
500 Hz loop, one 500 Hz command input of the same size), a reference, not the same protocol.
Each row runs --warmup s (start-up left out), then its CPU % of one core (/proc utime +
stime) is measured for --duration s; the load average is printed beside each figure.

    python3 benchmarks/sim_node_cost.py [--duration 10] [--warmup 4] [--repeat 3]
        [--cases robstride2,robstride12,adam,aimrt]
Needs the workspace built and sourced (rcl_floor included). Target: node <= 2x the C floor.
"""

import argparse
import json
import os
import re
from statistics import median
import sys
import tempfile
import time
from typing import Any, Callable, Dict, List, Optional, Sequence, Tuple

from _bench_common import machine, params_file, select_cases, set_up_domain, utc_minute
from _cpu_sampling import load, measure_cpu
import workspace_testing as wt

RATE = 500.0
TARGET_RATIO = 2.0
CASES = ('robstride2', 'robstride12', 'adam', 'aimrt')
ROWS = ('node', 'c', 'take')
TAKEN = re.compile(r'taken (\d+)')


# --- message bytes ---------------------------------------------------------------------------

def _write(folder: str, name: str, data: bytes) -> str:
    path = os.path.join(folder, name)
    with open(path, 'wb') as f:
        f.write(data)
    return path


def robstride_bytes(folder: str, n: int) -> Tuple[str, str, str]:
    """Write the node's RobstrideState and JointState, and a valid command; return paths."""
    from rclpy.serialization import serialize_message
    from robstride_sim.state_cdr import StateEncoder
    from sensor_msgs.msg import JointState
    names = [f'joint_{i + 1}' for i in range(n)]
    enc = StateEncoder(list(range(1, n + 1)), names)
    state = enc.encode_state(1, 2, 0, [True] * n, [2] * n, [0] * n)
    joints = enc.encode_joint_state(1, 2, [0.1] * n, [0.0] * n, [0.0] * n)
    command = serialize_message(JointState(name=names, position=[0.0] * n))
    return (_write(folder, f'rs{n}_state.cdr', state),
            _write(folder, f'rs{n}_joint_states.cdr', joints),
            _write(folder, f'rs{n}_command.cdr', command))


def adam_bytes(folder: str) -> Tuple[str, str, str]:
    """Write a 25-motor LowState, a HandState and a valid LowCmd (ROS types); return paths."""
    from pnd_adam.msg import HandState, LowCmd, LowState, MotorCmd, MotorState
    from pnd_adam_description.joints import NUM_JOINTS
    from rclpy.serialization import serialize_message
    low = LowState(motor_state=[MotorState() for _ in range(NUM_JOINTS)])
    cmd = LowCmd(motor_cmd=[MotorCmd() for _ in range(NUM_JOINTS)])
    return (_write(folder, 'adam_lowstate.cdr', serialize_message(low)),
            _write(folder, 'adam_handstate.cdr', serialize_message(HandState())),
            _write(folder, 'adam_lowcmd.cdr', serialize_message(cmd)))


def aimrt_command_body() -> bytes:
    """Return a valid JointCommand (protobuf) naming every Adam U joint."""
    from aimrt_protocols_py.messages import JointCommand
    from pnd_adam_description.joints import JOINT_LIMITS
    msg = JointCommand()
    for lim in JOINT_LIMITS:
        q = min(max(0.0, lim.q_min), lim.q_max)
        msg.joints.add(name=lim.name, position=q, stiffness=10.0, damping=1.0)
    body: bytes = msg.SerializeToString()
    return body


def aimrt_state_sizes() -> List[int]:
    """Return the byte sizes of aimrt_mujoco_sim's three state bodies (pb)."""
    from aimrt_mujoco_sim.sim import AimrtMujocoSim, load_config
    import threading
    cfg = load_config(None)
    cfg.listen_port = 0     # an ephemeral port: only the bodies are wanted
    sim = AimrtMujocoSim(cfg, threading.Event())
    try:
        return [len(body) for _, _, body, _ in sim.state_batch(time.time_ns())]
    finally:
        sim.server.stop()


def string_cdr(size: int) -> bytes:
    """Return a serialized std_msgs/String of about `size` bytes."""
    from rclpy.serialization import serialize_message
    from std_msgs.msg import String
    data: bytes = serialize_message(String(data='x' * max(0, size - 9)))
    return data


# --- helper processes (this script with a hidden flag) ---------------------------------------

def _deadline_loop(tick: Callable[[], None], stopping: Callable[[], bool],
                   rate: float = RATE) -> None:
    period = 1.0 / rate
    deadline = time.monotonic() + period
    while not stopping():
        now = time.monotonic()
        if now < deadline:
            time.sleep(deadline - now)
            continue
        tick()
        deadline += period
        if now >= deadline:
            deadline = now + period


def run_take_floor(spec_path: str) -> int:
    """Run the rclpy take-in-tick floor of a spec until SIGINT/SIGTERM; print its counts."""
    from node_runtime import stop as stop_request
    stop_request.install()
    import importlib
    import rclpy
    from rclpy.qos import DurabilityPolicy, HistoryPolicy, QoSProfile, ReliabilityPolicy
    from rclpy.signals import SignalHandlerOptions
    with open(spec_path, encoding='utf-8') as f:
        spec = json.load(f)

    def message(type_name: str) -> Any:
        package, kind, name = type_name.split('/')
        return getattr(importlib.import_module(f'{package}.{kind}'), name)
    rclpy.init(signal_handler_options=SignalHandlerOptions.NO)
    qos = QoSProfile(depth=spec['depth'], history=HistoryPolicy.KEEP_LAST,
                     reliability=ReliabilityPolicy.RELIABLE if spec['reliable']
                     else ReliabilityPolicy.BEST_EFFORT,
                     durability=DurabilityPolicy.VOLATILE)
    node = rclpy.create_node('sim_floor_take')
    pubs = []
    for type_name, topic, path in spec['pubs']:
        with open(path, 'rb') as data_file:
            pubs.append((node.create_publisher(message(type_name), topic, qos),
                         data_file.read()))
    subs = [(node.create_subscription(message(t), topic, lambda _m: None, qos,
                                      raw=True).handle.take_message, message(t))
            for t, topic in spec['subs']]
    every = int(spec['every'])
    ticks = [0]
    taken = [0]

    def tick() -> None:
        if ticks[0] % every == 0:
            for pub, data in pubs:
                pub.publish(data)
        ticks[0] += 1
        for take, msg_type in subs:
            while take(msg_type, True) is not None:
                taken[0] += 1
    print('sim_floor_take: running:', flush=True)
    started = time.monotonic()
    try:
        _deadline_loop(tick, stop_request.requested)
    finally:
        elapsed = time.monotonic() - started
        print(f'sim_floor_take: {elapsed:.3f} s, {ticks[0]} ticks '
              f'({ticks[0] / elapsed:.1f} Hz), taken {taken[0]}', flush=True)
        node.destroy_node()
        rclpy.try_shutdown()
    return 0


def run_http_feeder(port: int) -> int:
    """POST a valid JointCommand to 127.0.0.1:port at 500 Hz until SIGINT/SIGTERM."""
    from node_runtime import stop as stop_request
    stop_request.install()
    from aimrt_protocols_py.http_channel import ChannelPublisher
    body = aimrt_command_body()
    publisher = ChannelPublisher(f'127.0.0.1:{port}', 0.5)
    sent = [0]

    def tick() -> None:
        try:
            publisher.post('joint_command', 'pb:aimrt.protocols.sensor.JointCommand', body,
                           'application/protobuf')
            sent[0] += 1
        except OSError:
            pass
    print('http_feeder: running:', flush=True)
    try:
        _deadline_loop(tick, stop_request.requested)
    finally:
        print(f'http_feeder: sent {sent[0]}', flush=True)
        publisher.close()
    return 0


def run_http_sink(port: int) -> int:
    """Answer every POST to 127.0.0.1:port with 200 until SIGINT/SIGTERM."""
    from node_runtime import stop as stop_request
    stop_request.install()
    from aimrt_protocols_py.http_channel import ChannelServer
    got = [0]

    def handle(_topic: str, _type: str, _ctype: str, _body: bytes) -> Tuple[int, str]:
        got[0] += 1
        return 200, 'OK'
    server = ChannelServer('127.0.0.1', port, handle)
    server.start()
    print('http_sink: running:', flush=True)
    try:
        while not stop_request.requested():
            time.sleep(0.05)
    finally:
        server.stop()
        print(f'http_sink: received {got[0]}', flush=True)
    return 0


# --- the cases -------------------------------------------------------------------------------

class Case:
    """A simulator, its floors' endpoints and the processes around it (its stack's traffic)."""

    def __init__(self, label: str, node: List[str], ready: str,
                 pubs: List[Tuple[str, str, str]], subs: List[Tuple[str, str]],
                 around: List[List[str]], *, around_floor: Optional[List[List[str]]] = None,
                 reliable: bool = True, depth: int = 10, every: int = 1,
                 env: Optional[Dict[str, str]] = None, note: str = '') -> None:
        self.label = label
        self.node = node
        self.ready = ready
        self.pubs = pubs
        self.subs = subs
        self.around = around
        self.around_floor = around if around_floor is None else around_floor
        self.reliable = reliable
        self.depth = depth
        self.every = every
        self.env = env
        self.note = note

    def qos_args(self) -> List[str]:
        """Return rcl_floor's QoS flags."""
        return (['--reliable'] if self.reliable else []) + ['--depth', str(self.depth)]

    def c_floor(self) -> List[str]:
        """Return the C floor's command line."""
        cmd = [wt.executable('rcl_floor', 'rcl_floor'), '--name', 'sim_floor_c',
               '--rate', f'{RATE:g}', '--every', str(self.every), *self.qos_args()]
        for type_name, topic, path in self.pubs:
            cmd += ['--pub', f'{type_name}:{topic}:{path}']
        if self.subs:
            for type_name, topic in self.subs:
                cmd += ['--sub', f'{type_name}:{topic}']
        else:
            cmd += ['--subscriptions', '0']
        return cmd

    def take_floor(self, folder: str) -> List[str]:
        """Return the rclpy take-in-tick floor's command line (its spec written to folder)."""
        path = os.path.join(folder, f'take_{abs(hash(self.label))}.json')
        with open(path, 'w', encoding='utf-8') as f:
            json.dump({'pubs': self.pubs, 'subs': self.subs, 'reliable': self.reliable,
                       'depth': self.depth, 'every': self.every}, f)
        return [sys.executable, os.path.abspath(__file__), '--take-floor', path]


def rcl_feeder(name: str, type_name: str, topic: str, path: str, qos: Sequence[str]
               ) -> List[str]:
    """Return an rcl_floor that publishes `path` on `topic` at 500 Hz and takes nothing."""
    return [wt.executable('rcl_floor', 'rcl_floor'), '--name', name, '--rate', f'{RATE:g}',
            *qos, '--pub', f'{type_name}:{topic}:{path}', '--subscriptions', '0']


def rcl_observer(name: str, subs: Sequence[Tuple[str, str]], qos: Sequence[str]
                 ) -> List[str]:
    """Return an rcl_floor that only takes `subs`."""
    cmd = [wt.executable('rcl_floor', 'rcl_floor'), '--name', name, '--publishers', '0',
           *qos]
    for type_name, topic in subs:
        cmd += ['--sub', f'{type_name}:{topic}']
    return cmd


def robstride_case(n: int, folder: str) -> Case:
    """robstride_sim_node with n simulated motors, fed at 500 Hz, both outputs observed."""
    state, joints, command = robstride_bytes(folder, n)
    ns = '/rs_cost'
    prefix = f'{ns}/robstride_hardware_interface'
    pubs = [('robstride_interfaces/msg/RobstrideState', f'{prefix}/robstride_state', state),
            ('sensor_msgs/msg/JointState', f'{ns}/joint_states', joints)]
    subs = [('sensor_msgs/msg/JointState', f'{prefix}/joint_commands')]
    qos = ['--reliable', '--depth', '10']
    around = [rcl_feeder('rs_feeder', subs[0][0], subs[0][1], command, qos),
              rcl_observer('rs_observer', [(t, topic) for t, topic, _ in pubs], qos)]
    node = [wt.executable('robstride_sim', 'robstride_sim_node'), '--ros-args',
            '--params-file', params_file(n, folder), '-r', f'__ns:={ns}']
    return Case(f'robstride_sim, {n} motors', node, 'RobStride motor', pubs, subs, around,
                note='floors: reliable depth 10 both ways (the node: state reliable depth 10, '
                     'commands best effort depth 10)')


def adam_case(folder: str, domain: int) -> Case:
    """adam_sim (MuJoCo, shipped config) fed LowCmd at 500 Hz, LowState/HandState observed."""
    from ament_index_python.packages import get_package_share_directory
    from pnd_adam_examples.fastdds_profile import PROFILE_ENV, profile_path
    from workspace_testing.adam_sim import localhost_env
    low, hand, cmd = adam_bytes(folder)
    env = localhost_env(domain)
    env[PROFILE_ENV] = profile_path()
    env['RMW_IMPLEMENTATION'] = 'rmw_fastrtps_cpp'
    pubs = [('pnd_adam/msg/LowState', 'lowstate', low),
            ('pnd_adam/msg/HandState', 'handstate', hand)]
    subs = [('pnd_adam/msg/LowCmd', 'lowcmd'), ('pnd_adam/msg/HandCmd', 'handcmd')]
    qos = ['--reliable', '--depth', '10']
    around = [rcl_feeder('adam_feeder', subs[0][0], subs[0][1], cmd, qos),
              rcl_observer('adam_observer', [(t, topic) for t, topic, _ in pubs], qos)]
    config = os.path.join(get_package_share_directory('pnd_adam_sim'), 'config',
                          'adam_sim.yaml')
    node = [wt.executable('pnd_adam_sim', 'adam_sim'), '--config', config,
            '--domain', str(domain)]
    return Case('adam_sim on MuJoCo (shipped config)', node, 'running:', pubs, subs, around,
                env=env, note='node on Cyclone DDS; feeder, observer and floors on rcl / '
                              'Fast DDS with the pnd_adam_examples interop profile')


def aimrt_case(folder: str) -> Case:
    """aimrt_mujoco_sim fed JointCommand POSTs at 500 Hz, its state POSTs answered."""
    cmd_port, sink_port = wt.free_port(), wt.free_port()
    config = os.path.join(folder, 'aimrt.json')
    with open(config, 'w', encoding='utf-8') as f:
        json.dump({'listen_port': cmd_port, 'state_addresses': [f'127.0.0.1:{sink_port}']}, f)
    me = [sys.executable, os.path.abspath(__file__)]
    around = [me + ['--http-feeder', str(cmd_port)], me + ['--http-sink', str(sink_port)]]
    sizes = aimrt_state_sizes()
    pubs = [('std_msgs/msg/String', f'aimrt_floor/state_{i}',
             _write(folder, f'aimrt_state_{i}.cdr', string_cdr(size)))
            for i, size in enumerate(sizes)]
    subs = [('std_msgs/msg/String', 'aimrt_floor/joint_command')]
    command = _write(folder, 'aimrt_command.cdr', string_cdr(len(aimrt_command_body())))
    qos = ['--reliable', '--depth', '10']
    around_floor = [rcl_feeder('aimrt_feeder', subs[0][0], subs[0][1], command, qos),
                    rcl_observer('aimrt_observer', [(t, topic) for t, topic, _ in pubs], qos)]
    node = [wt.executable('aimrt_mujoco_sim', 'aimrt_mujoco_sim'), '--config', config]
    return Case('aimrt_mujoco_sim', node, 'running:', pubs, subs, around,
                around_floor=around_floor, every=5,
                note=f'HTTP; floors: the rcl equivalent (3 String topics of {sizes} bytes '
                     f'every 5th tick, 1 command input of {len(aimrt_command_body())} bytes)')


# --- the measurement -------------------------------------------------------------------------

def measure_row(cmd: List[str], ready: str, around: List[List[str]],
                env: Optional[Dict[str, str]], args: argparse.Namespace
                ) -> Dict[str, Any]:
    """Start the helpers and `cmd`, skip --warmup s, measure its CPU; return the figures."""
    helpers = []
    proc = None
    try:
        for helper in around:
            started = wt.start(helper, env=env)
            helpers.append(started)
            if not started.wait_for_output('running:', 30, period=0.01):
                raise RuntimeError(f'{helper[0]} did not start: {started.output()[-500:]}')
        proc = wt.start(cmd, env=env)
        if not proc.wait_for_output(ready, 60, period=0.01):
            raise RuntimeError(f'{cmd[0]} did not start: {proc.output()[-500:]}')
        time.sleep(args.warmup)
        before = load()
        cpu = measure_cpu([proc.pid], args.duration)[0]
        after = load()
    finally:
        # The helpers first: adam_sim's Cyclone writers linger up to 20 s at exit for a
        # reliable Fast DDS reader that is still there.
        for helper_proc in reversed(helpers):
            wt.stop(helper_proc)
        stopped = wt.stop(proc, timeout=30.0) if proc is not None else None
    if stopped is None or stopped.returncode != 0:
        raise RuntimeError(f'{cmd[0]} exited {stopped.returncode if stopped else "?"}: '
                           f'{((stopped.output if stopped else "") or "")[-500:]}')
    taken = TAKEN.search(stopped.output or '')
    return {'cpu': cpu, 'load': f'{before}->{after}',
            'taken': int(taken.group(1)) if taken else None}


def run_case(case: Case, folder: str, args: argparse.Namespace) -> Dict[str, List[Any]]:
    """Measure the case's rows alternately --repeat times; return the rows' figures."""
    commands = {'node': (case.node, case.ready, case.around),
                'c': (case.c_floor(), 'running:', case.around_floor),
                'take': (case.take_floor(folder), 'running:', case.around_floor)}
    results: Dict[str, List[Any]] = {row: [] for row in ROWS}
    for _ in range(args.repeat):
        for row in ROWS:
            cmd, ready, around = commands[row]
            results[row].append(measure_row(cmd, ready, around, case.env, args))
            time.sleep(0.5)
    return results


def report(case: Case, results: Dict[str, List[Any]]) -> None:
    """Print the case's table: each row beside the C floor, with the runs and the load."""
    def cpu(row: str) -> float:
        return float(median(r['cpu'] for r in results[row]))
    c_floor = cpu('c')
    print(f'\n### {case.label}\n{case.note}\n')
    print('| row | CPU % of one core (median; runs) | x C floor | load 1 min (before->after) |')
    print('|---|---|---|---|')
    names = {'node': 'the node', 'c': 'C floor (rcl_floor)',
             'take': 'rclpy take-in-tick floor'}
    for row in ROWS:
        runs = ', '.join(f'{r["cpu"]:.1f}' for r in results[row])
        ratio = cpu(row) / c_floor if c_floor > 0 else float('nan')
        print(f'| {names[row]} | {cpu(row):.1f} % ({runs}) | {ratio:.2f}x '
              f'| {"; ".join(r["load"] for r in results[row])} |')
    ratio = cpu('node') / c_floor if c_floor > 0 else float('nan')
    verdict = 'met' if ratio <= TARGET_RATIO else 'NOT met'
    print(f'\nnode / C floor = {ratio:.2f}x (target <= {TARGET_RATIO:g}x): {verdict}', flush=True)


def main() -> int:
    """Measure the cases; print one table each."""
    p = argparse.ArgumentParser(description=(__doc__ or '').strip().split('\n')[0])
    p.add_argument('--duration', type=float, default=10.0, help='s per CPU measurement')
    p.add_argument('--warmup', type=float, default=4.0, help='s after start-up, not measured')
    p.add_argument('--repeat', type=int, default=3, help='rounds of every row (medians)')
    p.add_argument('--cases', default=','.join(CASES),
                   help=f'comma-separated, of: {", ".join(CASES)}')
    p.add_argument('--domain', type=int, default=None,
                   help='ROS_DOMAIN_ID (default: a free one from workspace_testing)')
    p.add_argument('--take-floor', help=argparse.SUPPRESS)
    p.add_argument('--http-feeder', type=int, help=argparse.SUPPRESS)
    p.add_argument('--http-sink', type=int, help=argparse.SUPPRESS)
    args = p.parse_args()
    if args.take_floor:
        return run_take_floor(args.take_floor)
    if args.http_feeder:
        return run_http_feeder(args.http_feeder)
    if args.http_sink:
        return run_http_sink(args.http_sink)
    cases = select_cases(p, args.cases, CASES)
    domain = set_up_domain(args.domain)
    print(f'issue 40, the simulators: {utc_minute()}; {machine()}; '
          f'ROS_DISTRO={os.environ.get("ROS_DISTRO")}; ROS_DOMAIN_ID={domain}; '
          f'{args.duration:g} s each after {args.warmup:g} s, {args.repeat} rounds; '
          f'load average {load(None)}', flush=True)
    with tempfile.TemporaryDirectory(prefix='sim_node_cost_') as folder:
        for name in cases:
            if name.startswith('robstride'):
                case = robstride_case(int(name[len('robstride'):]), folder)
            elif name == 'adam':
                case = adam_case(folder, domain)
            else:
                case = aimrt_case(folder)
            report(case, run_case(case, folder, args))
    print(f'\nload average after: {load(None)}')
    return 0


if __name__ == '__main__':
    sys.exit(main())
