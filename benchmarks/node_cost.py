#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""
CPU per 500 Hz node beside the issue-20 target and a floor with the same topics, same run.

For each node: the node runs for --warmup s (its publishers and subscriptions are read from
the ROS graph, one sample of each published topic is captured as CDR bytes and each topic's
rate is counted), then its CPU % of one core (/proc utime+stime) is measured for --duration s.
Then its floors run in the same place: a bare rclpy node (a 500 Hz timer on an
EventsExecutor) with the SAME publishers (same types, QoS and rates, publishing the captured
bytes, pre-serialized) and the same subscriptions (raw, callbacks that do nothing), measured
the same way; and (issue 40) the C floor, benchmarks/rcl_floor: a node on rcl with the same
500 Hz publishers (the captured bytes) and subscriptions, taken in an rcl wait set. Node and
floors alternate --repeat times (default 3) and the verdict is on the
medians: a single pair moved by up to 2x between runs on this VM. A node fed by a peer keeps
its peer: bridge_node and control_node are measured together and their floors together (each
floor feeds the other, as the nodes do).

Target (issue 40): every 500 Hz node <= 2x its C floor.
Target (issue 20): every 500 Hz node <= 10 % of one core and <= 2x its floor; hb50_stack
(two 500 Hz nodes in one process) <= 20 % and <= 2x the floor of the same four nodes' topics
in one process. Cases: hb50 bridge_node + control_node on MuJoCo (3 processes), hb50_stack,
robstride_sim_node with 2 and with 12 motors, and adam_sim (MuJoCo) and aimrt_mujoco_sim,
which are not rclpy nodes (Cyclone DDS, HTTP): their floors are in the same technology, the
simulator's own endpoints and 500 Hz DeadlineLoop with the model's step left out (bytes
encoded once).

    python3 benchmarks/node_cost.py [--duration 10] [--warmup 5] [--repeat 3] [--cases ...]
Needs the workspace sourced. The load average is printed beside every figure.
"""

import argparse
import base64
import importlib
import json
import os
from statistics import median
import sys
import tempfile
import threading
import time
from typing import Any, Callable, Dict, Iterable, List, Mapping, Sequence, Tuple, TypedDict

from _bench_common import params_file, spin_in_thread, spin_then_close
from _cpu_sampling import load, measure_cpu as measure_pids_cpu
from node_runtime import stop as stop_request
from workspace_testing import allocate_domain, executable, localhost_env, NodeProcess, start, stop

RATE = 500.0
TARGET_CPU = 10.0
TARGET_RATIO = 2.0
_IGNORED = ('/rosout', '/parameter_events')
#: A node as the graph names it: (name, namespace).
NodeName = Tuple[str, str]


#: A node's publisher or subscription as the graph shows it (Observer.endpoints).
Endpoint = TypedDict('Endpoint', {'topic': str, 'type': str, 'reliability': int,
                                  'durability': int, 'depth': int})


class FloorPub(Endpoint):
    """A floor's publisher: every `every`-th tick (0: once) the captured bytes, base64."""

    every: int
    data: str


class FloorSpec(TypedDict):
    """What a floor process publishes and subscribes (run_floor, start_c_floor)."""

    name: str
    namespace: str
    pubs: List[FloorPub]
    subs: List[Endpoint]


def get_message(type_name: str) -> Any:
    """Return the Python class of 'pkg/msg/Type'."""
    package, kind, name = type_name.split('/')
    return getattr(importlib.import_module(f'{package}.{kind}'), name)


# --- the floor process -----------------------------------------------------------------------

def run_floor(spec_path: str) -> int:
    """Run a bare rclpy node publishing the spec's bytes at the spec's rates until SIGINT."""
    import rclpy
    from rclpy.experimental import EventsExecutor
    from rclpy.qos import DurabilityPolicy, HistoryPolicy, QoSProfile, ReliabilityPolicy
    from rclpy.signals import SignalHandlerOptions

    with open(spec_path, encoding='utf-8') as f:
        spec = json.load(f)
    stopping = stop_request.watch()   # SIGINT/SIGTERM set it (node_runtime.stop)
    rclpy.init(signal_handler_options=SignalHandlerOptions.NO)

    def qos(entry: Dict[str, Any]) -> Any:
        return QoSProfile(history=HistoryPolicy.KEEP_LAST, depth=max(1, entry['depth']),
                          reliability=ReliabilityPolicy(entry['reliability']),
                          durability=DurabilityPolicy(entry['durability']))
    node = rclpy.create_node(spec['name'], namespace=spec['namespace'])
    periodic: List[Tuple[Any, bytes, int]] = []
    once: List[Tuple[Any, bytes, int]] = []
    for entry in spec['pubs']:
        pub = node.create_publisher(get_message(entry['type']), entry['topic'], qos(entry))
        data = base64.b64decode(entry['data'])
        (periodic if entry['every'] else once).append((pub, data, entry['every']))
    for entry in spec['subs']:
        node.create_subscription(get_message(entry['type']), entry['topic'], lambda _: None,
                                 qos(entry), raw=True)
    for pub, data, _ in once:
        pub.publish(data)
    ticks = [0]

    def tick() -> None:
        ticks[0] += 1
        for pub, data, every in periodic:
            if ticks[0] % every == 0:
                pub.publish(data)
    node.create_timer(1.0 / RATE, tick)
    executor = EventsExecutor()
    executor.add_node(node)
    print('running:', flush=True)
    spin_then_close(executor, node, stopping.is_set, 0.05)
    return 0


def _run_loop(tick: Callable[[float], None], stopping: threading.Event) -> None:
    """Tick at RATE in node_runtime's DeadlineLoop (the simulators' loop) until stopping."""
    from node_runtime.loop import DeadlineLoop
    from node_runtime.runner import StopWait
    loop = DeadlineLoop(1.0 / RATE, tick, raise_errors=True)
    loop.prepare_thread()
    print('running:', flush=True)
    loop.run(StopWait(stopping), lambda: not stopping.is_set())


def run_adam_floor(domain: int) -> int:
    """
    Run adam_sim's floor until SIGINT: its DDS endpoints and loop, without the model.

    The same Cyclone DDS participant, writers (rt/lowstate, rt/handstate) and command readers
    (rt/lowcmd, rt/handcmd, drained every tick) as the simulator, writing bytes encoded once.
    """
    from pnd_adam_sim.simulator import AdamSimulator
    from pnd_adam_sim.state_cdr import write_serialized
    stopping = stop_request.watch()   # SIGINT/SIGTERM set it (node_runtime.stop)
    sim = AdamSimulator(domain, RATE, stop=stopping)
    low, hand = sim.encoder.lowstate(sim.model), sim.encoder.handstate(sim.model)

    def tick(_deadline: float) -> None:
        sim.lowcmd_intake.drain()
        sim.handcmd_intake.drain()
        write_serialized(sim.lowstate_writer, low)
        write_serialized(sim.handstate_writer, hand)
    try:
        _run_loop(tick, stopping)
    finally:
        sim.close()
    return 0


def run_aimrt_floor(config: str) -> int:
    """
    Run aimrt_mujoco_sim's floor until SIGINT: its HTTP endpoints and loop, without physics.

    The same JointCommand server and state poster as the simulator; every publish_every-th
    tick offers a state batch encoded once.
    """
    from aimrt_mujoco_sim.sim import AimrtMujocoSim, load_config
    stopping = stop_request.watch()   # SIGINT/SIGTERM set it (node_runtime.stop)
    sim = AimrtMujocoSim(load_config(config), stopping)
    batch = sim.state_batch(time.time_ns())
    ticks = [0]

    def tick(_deadline: float) -> None:
        ticks[0] += 1
        if ticks[0] % sim.publish_every == 0:
            sim.poster.offer(batch)
    sim.start()
    try:
        _run_loop(tick, stopping)
    finally:
        sim.close()
    return 0


# --- the observer: graph discovery, capture ----------------------------------------------

class Observer:
    """An rclpy node in this process that reads the graph and captures topics' bytes."""

    def __init__(self) -> None:
        import rclpy
        from rclpy.experimental import EventsExecutor
        self.rclpy = rclpy
        rclpy.init()
        self.node = rclpy.create_node('node_cost_observer')
        self.executor = EventsExecutor()
        self.executor.add_node(self.node)
        self.lock = threading.Lock()
        self.samples: Dict[str, List[Any]] = {}       # topic -> [count, last bytes]
        self.counting = False
        self._subs: Dict[str, Any] = {}
        self._stop, self._spinner = spin_in_thread(self.executor, 0.05)

    def close(self) -> None:
        self._stop.set()
        self._spinner.join(2.0)
        self.executor.shutdown(timeout_sec=1.0)
        self.node.destroy_node()
        self.rclpy.try_shutdown()

    def nodes(self) -> List[NodeName]:
        return [(n, ns) for n, ns in self.node.get_node_names_and_namespaces()
                if n != 'node_cost_observer']

    def endpoints(self, name: str, namespace: str) -> List[List[Endpoint]]:
        """Return the node's (publishers, subscriptions): dicts of topic, type and QoS."""
        g = self.node
        out: List[List[Endpoint]] = []
        for listing, info in ((g.get_publisher_names_and_types_by_node,
                               g.get_publishers_info_by_topic),
                              (g.get_subscriber_names_and_types_by_node,
                               g.get_subscriptions_info_by_topic)):
            entries: List[Endpoint] = []
            for topic, types in listing(name, namespace):
                if topic in _IGNORED:
                    continue
                mine = [e for e in info(topic) if e.node_name == name
                        and e.node_namespace == namespace]
                if not mine:
                    continue
                q = mine[0].qos_profile
                entries.append({'topic': topic, 'type': types[0],
                                'reliability': int(q.reliability),
                                'durability': int(q.durability),
                                'depth': int(q.depth) if q.depth else 10})
            out.append(entries)
        return out

    def subscribe(self, entries: Iterable[Endpoint]) -> None:
        """Count and keep the last bytes of each published topic (raw subscriptions)."""
        from rclpy.qos import DurabilityPolicy, HistoryPolicy, QoSProfile, ReliabilityPolicy
        for entry in entries:
            topic = entry['topic']
            if topic in self._subs:
                continue
            qos = QoSProfile(history=HistoryPolicy.KEEP_LAST, depth=10,
                             reliability=ReliabilityPolicy(entry['reliability']),
                             durability=DurabilityPolicy(entry['durability']))

            def on_raw(raw: bytes, topic: str = topic) -> None:
                with self.lock:
                    sample = self.samples.setdefault(topic, [0, None])
                    sample[1] = raw
                    if self.counting:
                        sample[0] += 1
            self._subs[topic] = self.node.create_subscription(
                get_message(entry['type']), topic, on_raw, qos, raw=True)

    def count(self, seconds: float) -> Dict[str, float]:
        """Return {topic: Hz} over `seconds`."""
        with self.lock:
            for sample in self.samples.values():
                sample[0] = 0
            self.counting = True
        time.sleep(seconds)
        with self.lock:
            self.counting = False
            return {t: s[0] / seconds for t, s in self.samples.items()}


def wait_nodes(observer: Observer, names: Sequence[NodeName],
               timeout: float = 30.0) -> Dict[NodeName, List[List[Endpoint]]]:
    """Wait until the graph shows every (name, namespace) with its endpoints; return them."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        present = set(observer.nodes())
        if all(n in present for n in names):
            eps = {n: observer.endpoints(*n) for n in names}
            if all(pubs for pubs, _ in eps.values()):
                return eps
        time.sleep(0.2)
    raise RuntimeError(f'nodes {names} did not appear: {sorted(observer.nodes())}')


def floor_spec(observer: Observer, name: str, namespace: str,
               endpoints: Sequence[List[Endpoint]], rates: Mapping[str, float]) -> FloorSpec:
    """Return the floor's spec: the node's topics, captured bytes and counted rates."""
    pubs, subs = endpoints
    out: List[FloorPub] = []
    with observer.lock:
        for entry in pubs:
            sample = observer.samples.get(entry['topic'])
            if sample is None or sample[1] is None:
                continue
            rate = rates.get(entry['topic'], 0.0)
            every = max(1, round(RATE / rate)) if rate >= 0.5 else 0
            out.append({**entry, 'every': every, 'data': base64.b64encode(sample[1]).decode()})
    return {'name': name, 'namespace': namespace, 'pubs': out, 'subs': subs}


def start_floor(spec: FloorSpec, tmp: str, env: Mapping[str, str]) -> NodeProcess:
    path = os.path.join(tmp, f'floor_{spec["name"]}_{len(os.listdir(tmp))}.json')
    with open(path, 'w', encoding='utf-8') as f:
        json.dump(spec, f)
    proc = start([sys.executable, os.path.abspath(__file__), '--floor', path], env=env)
    if not proc.wait_for_output('running:', 30, period=0.01):
        raise RuntimeError(f'floor did not start: {proc.output()[-500:]}')
    return proc


def start_c_floor(spec: FloorSpec, tmp: str, env: Mapping[str, str]) -> NodeProcess:
    """
    Start the C floor of a spec (benchmarks/rcl_floor) and wait until it runs.

    The same 500 Hz publishers, each publishing its captured bytes, and the same
    subscriptions, taken raw in an rcl wait set.
    Publishers slower than 500 Hz are left out (rcl_floor ticks them all at one rate); they
    add a few per mille at most.
    """
    cmd = [executable('rcl_floor', 'rcl_floor'), '--name', spec['name'] + '_c_floor',
           '--namespace', spec['namespace']]
    for i, entry in enumerate(spec['pubs']):
        if entry['every'] != 1:
            continue
        path = os.path.join(tmp, f'c_floor_{spec["name"]}_{i}.cdr')
        with open(path, 'wb') as f:
            f.write(base64.b64decode(entry['data']))
        cmd += ['--pub', f'{entry["type"]}:{entry["topic"]}:{path}']
    for sub in spec['subs']:
        cmd += ['--sub', f'{sub["type"]}:{sub["topic"]}']
    if not any(arg == '--pub' for arg in cmd):
        cmd += ['--publishers', '0']
    if not any(arg == '--sub' for arg in cmd):
        cmd += ['--subscriptions', '0']
    proc = start(cmd, env=env)
    if not proc.wait_for_output('running:', 30, period=0.01):
        raise RuntimeError(f'C floor did not start: {proc.output()[-500:]}')
    return proc


def measure_cpu(procs: Iterable[NodeProcess], seconds: float) -> List[float]:
    """CPU % of one core of each process over the same `seconds`."""
    return measure_pids_cpu([p.pid for p in procs], seconds)


def verdict(cpu: float, floor: float, target: float = TARGET_CPU) -> str:
    ratio = cpu / floor if floor > 0 else float('inf')
    met = cpu <= target and ratio <= TARGET_RATIO
    return (f'CPU {cpu:5.1f} % (target <= {target:g} %), floor {floor:5.1f} %, '
            f'{ratio:4.1f}x (target <= {TARGET_RATIO:g}x): {"met" if met else "NOT MET"}')


def topic_summary(pubs: Iterable[Endpoint], rates: Mapping[str, float]) -> str:
    fast = [e['topic'] for e in pubs if rates.get(e['topic'], 0.0) > RATE / 10]
    return ', '.join(f'{t} {rates[t]:.0f} Hz' for t in fast)


# --- cases -------------------------------------------------------------------------------

def _spread(values: Sequence[float]) -> str:
    """'median % (min-max, n runs)' of CPU figures, or the one figure."""
    if len(values) == 1:
        return f'{values[0]:.1f} %'
    return f'{median(values):.1f} % ({min(values):.1f}-{max(values):.1f}, {len(values)} runs)'


def _report(cpus: Sequence[float], floors: Sequence[float], target: float,
            loads: Sequence[str]) -> None:
    """Print the verdict on the medians, then every run's figures and loads."""
    print(f'  {verdict(median(cpus), median(floors), target)}')
    if len(cpus) > 1:
        print(f'  runs, node then floor alternately: node {_spread(cpus)}, '
              f'floor {_spread(floors)}')
    print(f'  load {"; ".join(loads)}')


def _measure_and_stop(observer: Observer, procs: Sequence[NodeProcess],
                      settle: Callable[[], None], into: Iterable[List[float]],
                      args: argparse.Namespace, what: str, loads: List[str]) -> Dict[str, float]:
    """
    After settle(), append each process's CPU % to its list in `into`; stop them all.

    Return the topics' rates counted right after; the window's load goes to `loads`.
    """
    try:
        settle()
        before = load()
        for each, cpu in zip(into, measure_cpu(procs, args.duration)):
            each.append(cpu)
        rates = observer.count(2.0)
        loads.append(f'{what} {before} -> {load()}')
        return rates
    finally:
        for proc in procs:
            stop(proc)
        time.sleep(1.0)


def case_nodes(observer: Observer, label: str, commands: Sequence[Sequence[str]],
               names: Sequence[Sequence[NodeName]], args: argparse.Namespace,
               env: Mapping[str, str], tmp: str, target: float = TARGET_CPU) -> None:
    """
    Measure `commands` (one process each), then their floors together, --repeat times.

    One floor process per entry of `names`, the union of that process's nodes' topics. The
    node and its floor alternate, so a drift of the machine falls on both; the verdict is
    on the medians.

    names: per process, the (name, namespace) list of the nodes it holds.
    """
    specs: List[FloorSpec] = []
    cpus: List[List[float]] = [[] for _ in names]
    f_cpus: List[List[float]] = [[] for _ in names]
    c_cpus: List[List[float]] = [[] for _ in names]
    loads: List[str] = []

    def settle() -> None:
        # The node's endpoints are read from the graph; its floor's spec once, the first time.
        eps = wait_nodes(observer, [n for group in names for n in group])
        for pubs, _ in eps.values():
            observer.subscribe(pubs)
        time.sleep(args.warmup)
        if not specs:
            rates = observer.count(min(2.0, args.warmup))
            for group in names:
                merged: FloorSpec = {'pubs': [], 'subs': [], 'name': group[0][0],
                                     'namespace': group[0][1]}
                for name, ns in group:
                    spec = floor_spec(observer, name, ns, eps[(name, ns)], rates)
                    merged['pubs'] += spec['pubs']
                    merged['subs'] += spec['subs']
                specs.append(merged)
    for _ in range(args.repeat):
        node_rates = _measure_and_stop(observer, [start(cmd, env=env) for cmd in commands],
                                       settle, cpus, args, 'node', loads)
        floor_rates = _measure_and_stop(observer,
                                        [start_floor(spec, tmp, env) for spec in specs],
                                        lambda: time.sleep(min(3.0, args.warmup)), f_cpus,
                                        args, 'floor', loads)
        _measure_and_stop(observer, [start_c_floor(spec, tmp, env) for spec in specs],
                          lambda: time.sleep(min(3.0, args.warmup)), c_cpus, args,
                          'C floor', loads)
    for group, spec, cpu, f_cpu, c_cpu in zip(names, specs, cpus, f_cpus, c_cpus):
        who = ' + '.join(n for n, _ in group)
        print(f'{label}: {who}')
        print(f'  topics: {topic_summary(spec["pubs"], node_rates)}; subscribes '
              f'{", ".join(e["topic"] for e in spec["subs"]) or "nothing"}')
        print(f'  floor (same {len(spec["pubs"])} publishers, {len(spec["subs"])} '
              f'subscriptions): {topic_summary(spec["pubs"], floor_rates)}')
        _report(cpu, f_cpu, target, loads)
        c_ratio = median(cpu) / median(c_cpu) if median(c_cpu) > 0 else float('inf')
        print(f'  C floor on rcl (the same 500 Hz publishers and subscriptions): '
              f'{_spread(c_cpu)}; the node {c_ratio:.1f}x it (issue 40 target <= '
              f'{TARGET_RATIO:g}x): {"met" if c_ratio <= TARGET_RATIO else "NOT MET"}')
        fast = [node_rates[e['topic']] for e in spec['pubs']
                if node_rates.get(e['topic'], 0.0) > RATE / 4]
        if fast and min(fast) < 0.99 * RATE:
            # A loop that skips ticks (load, stalls) costs less than one at the full rate.
            print(f'  the node published {min(fast):.0f} Hz (last run), not {RATE:.0f}: its '
                  f'CPU scaled to {RATE:.0f} Hz would be {median(cpu) * RATE / min(fast):.1f} %')


def case_plain(label: str, cmd: Sequence[str], floor_cmd: Sequence[str], env: Mapping[str, str],
               args: argparse.Namespace, ready: str, what: str) -> None:
    """Measure a process that is not an rclpy node, then its same-technology floor."""
    runs: List[List[float]] = [[], []]
    loads: List[str] = []
    for _ in range(args.repeat):
        for which, command in enumerate((cmd, floor_cmd)):
            proc = start(command, env=env)
            try:
                if not proc.wait_for_output(ready, 60, period=0.01):
                    raise RuntimeError(f'{label} did not start: {proc.output()[-500:]}')
                time.sleep(args.warmup)
                before = load()
                runs[which] += measure_cpu([proc], args.duration)
                loads.append(f'{("node", "floor")[which]} {before} -> {load()}')
            finally:
                stop(proc)
            time.sleep(1.0)
    print(f'{label} (not an rclpy node; floor: {what})')
    _report(runs[0], runs[1], TARGET_CPU, loads)


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__.strip().split('\n')[0])
    p.add_argument('--duration', type=float, default=10.0, help='s per CPU measurement')
    p.add_argument('--warmup', type=float, default=5.0, help='s before measuring')
    p.add_argument('--repeat', type=int, default=3,
                   help='node and floor measured alternately this many times (medians)')
    p.add_argument('--cases', default='hb50,stack,robstride,adam,aimrt',
                   help='comma-separated: hb50, stack, robstride, adam, aimrt')
    p.add_argument('--domain', type=int, default=None,
                   help='ROS_DOMAIN_ID (default: a free one from workspace_testing)')
    p.add_argument('--floor', metavar='SPEC', help=argparse.SUPPRESS)
    p.add_argument('--adam-floor', metavar='DOMAIN', type=int, help=argparse.SUPPRESS)
    p.add_argument('--aimrt-floor', metavar='CONFIG', help=argparse.SUPPRESS)
    args = p.parse_args()
    if args.floor:
        return run_floor(args.floor)
    if args.adam_floor is not None:
        return run_adam_floor(args.adam_floor)
    if args.aimrt_floor:
        return run_aimrt_floor(args.aimrt_floor)
    domain = args.domain if args.domain is not None else allocate_domain()
    env = localhost_env(domain)
    os.environ.update(env)
    cases = set(args.cases.split(','))
    print(f'CPU per 500 Hz node ({os.cpu_count()} CPUs, ROS_DOMAIN_ID={domain}, '
          f'{args.duration:g} s each after {args.warmup:g} s; load average {load()})')
    quiet = ['--ros-args', '--log-level', 'warn']
    observer = Observer()
    try:
        with tempfile.TemporaryDirectory(prefix='node_cost_') as tmp:
            def hb50(exe: str) -> List[str]:
                return [executable('hb50_nodes', exe)] + quiet

            if 'hb50' in cases:
                case_nodes(observer, 'hb50 on MuJoCo, 3 processes',
                           [hb50('bridge_node'), hb50('control_node')],
                           [[('bridge_node', '/hb50')], [('control_node', '/hb50')]],
                           args, env, tmp)
            if 'stack' in cases:
                case_nodes(observer, 'hb50_stack on MuJoCo (one process, 2 nodes at 500 Hz)',
                           [hb50('hb50_stack')],
                           [[('bridge_node', '/hb50'), ('control_node', '/hb50'),
                             ('heartbeat_monitor', '/hb50'),
                             ('state_publisher_node', '/hb50')]],
                           args, env, tmp, target=2 * TARGET_CPU)
            if 'robstride' in cases:
                for n in (2, 12):
                    cmd = [executable('robstride_sim', 'robstride_sim_node'), '--ros-args',
                           '--params-file', params_file(n, tmp), '-r',
                           '__ns:=/rs_bench', '--log-level', 'warn']
                    case_nodes(observer, f'robstride_sim, {n} motors', [cmd],
                               [[('robstride_hardware_interface', '/rs_bench')]],
                               args, env, tmp)
            if 'adam' in cases:
                from ament_index_python.packages import get_package_share_directory
                cfg = os.path.join(get_package_share_directory('pnd_adam_sim'), 'config',
                                   'adam_sim.yaml')
                case_plain('adam_sim on MuJoCo (shipped config)',
                           [executable('pnd_adam_sim', 'adam_sim'), '--config', cfg,
                            '--domain', str(domain)],
                           [sys.executable, os.path.abspath(__file__), '--adam-floor',
                            str(domain)], env, args, 'running:',
                           'the same Cyclone DDS writers, readers and 500 Hz loop, no model')
            if 'aimrt' in cases:
                from workspace_testing import free_port
                cfg = os.path.join(tmp, 'aimrt.json')
                with open(cfg, 'w', encoding='utf-8') as f:
                    json.dump({'listen_port': free_port()}, f)
                case_plain('aimrt_mujoco_sim',
                           [executable('aimrt_mujoco_sim', 'aimrt_mujoco_sim'), '--config',
                            cfg],
                           [sys.executable, os.path.abspath(__file__), '--aimrt-floor', cfg],
                           env, args, 'running:',
                           'the same HTTP server, state poster and 500 Hz loop, no physics')
    finally:
        observer.close()
    print(f'load average after: {load()}')
    return 0


if __name__ == '__main__':
    sys.exit(main())
