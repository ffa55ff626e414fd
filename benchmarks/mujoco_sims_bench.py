#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""
MuJoCo simulators at 500 Hz: real-time factor and CPU, beside a floor from the same run.

Measured, in this order, each for --duration s of wall clock:
1. floor: a Python loop sleeping to absolute 500 Hz deadlines and doing nothing else (the
   cost of pacing alone, the least any 500 Hz loop here can cost);
2. physics capacity: the Adam U MuJoCo model (pnd_adam_sim, fixed base, example gains)
   stepped unpaced in this process, with and without building the lowstate message:
   real-time factor = simulated s / wall s (the headroom of the engine);
3. adam_sim (the installed simulator, shipped config = MuJoCo, fixed base) and, for reference,
   the same with the gravity-free `simple` engine: real-time factor of the paced loop =
   ticks x period / wall time between its start and stop lines, and its CPU;
4. aimrt_mujoco_sim (floating base, states POSTed at 100 Hz to a subscriber in this process):
   real-time factor and CPU.
Target: real-time factor >= 1.0 at 500 Hz (paced loops: >= 0.99, they cannot run ahead of the
wall clock). CPU is % of one core from /proc (utime + stime).

    python benchmarks/mujoco_sims_bench.py [--duration 10] [--domain D]
Needs the workspace sourced (pnd_adam_sim, aimrt_mujoco_sim, aimrt_bridge installed). The
domain defaults to one from workspace_testing's allocator (held for the run).
"""

import argparse
import json
import os
import re
import signal
import socket
import sys
import tempfile
import time
from typing import Dict, List, Sequence, Tuple

from _bench_common import deadline_loop
from _cpu_sampling import cpu_seconds
from workspace_testing import allocate_domain, executable, start, stop
from workspace_testing.http_sink import HttpSink

RATE = 500.0
PERIOD = 1.0 / RATE
STOPPED = re.compile(r'stopped after (\d+) ticks')


def floor(seconds: float) -> Tuple[float, float]:
    """CPU % of one core and achieved rate of a bare 500 Hz deadline loop."""
    start_cpu = time.process_time()
    ticks, t0 = deadline_loop(PERIOD, seconds)
    wall = time.monotonic() - t0
    return 100.0 * (time.process_time() - start_cpu) / wall, ticks / wall


def capacity(seconds: float, with_message: bool) -> float:
    """Unpaced MuJoCo Adam U steps (and lowstate building): simulated s per wall s."""
    from pnd_adam_sim.model import AdamModel, ModelConfig
    from pnd_adam_sim.simulator import handstate_from_model, lowstate_from_model
    from pnd_adam_sim.vendor_idl import LowCmd_, MotorCmd_
    model = AdamModel(ModelConfig(physics_engine='mujoco', command_timeout=0.1),
                      timestep=PERIOD)
    model.apply_lowcmd(LowCmd_(motor_cmd=[
        MotorCmd_(mode=1, q=0.0, kp=405.0 if i < 3 else 60.0, kd=6.1 if i < 3 else 3.0)
        for i in range(19)]))
    model.cfg.command_timeout = 0.0  # keep the one command in force for the whole run
    ticks, t0 = 0, time.monotonic()
    while time.monotonic() - t0 < seconds:
        for _ in range(100):
            model.step(PERIOD)
            if with_message:
                lowstate_from_model(model)
                handstate_from_model(model)
        ticks += 100
    return ticks * PERIOD / (time.monotonic() - t0)


def run_process(cmd: Sequence[str], seconds: float, env: Dict[str, str],
                ready: str = 'running:') -> Tuple[float, float, List[str]]:
    """
    Start cmd, measure CPU for `seconds` after its ready line, then SIGINT it.

    Returns (real-time factor, CPU %, log lines).
    """
    proc = start(cmd, env=env)
    try:
        if not proc.wait_for_output(ready, 60, period=0.005):
            raise RuntimeError(f'{cmd[0]} did not start: {proc.output().splitlines()[-5:]}')
        t_start, cpu0 = time.monotonic(), cpu_seconds(proc.pid)
        time.sleep(seconds)
        cpu = 100.0 * (cpu_seconds(proc.pid) - cpu0) / (time.monotonic() - t_start)
    finally:
        t_stop = time.monotonic()  # the loop stops ticking at the signal, before teardown
        result = stop(proc)
    assert result.output is not None    # a NodeProcess's output is ours
    lines = result.output.splitlines()
    if (result.returncode, result.signal) != (0, signal.SIGINT):
        raise RuntimeError(f'{cmd[0]}: exit {result.returncode} after {result.signal!r}: '
                           f'{lines[-5:]}')
    ticks = next((int(m.group(1)) for m in map(STOPPED.search, lines) if m), None)
    if ticks is None:
        raise RuntimeError(f'{cmd[0]}: no stop line: {lines[-5:]}')
    # ticks cover start line -> stop; the start line comes just before the first tick
    return ticks * PERIOD / (t_stop - t_start), cpu, lines


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split('\n')[1])
    ap.add_argument('--duration', type=float, default=10.0, help='measured seconds per case')
    ap.add_argument('--domain', type=int, default=None,
                    help='DDS domain of adam_sim (default: a free one from workspace_testing)')
    args = ap.parse_args()
    from ament_index_python.packages import get_package_share_directory
    from workspace_testing.adam_sim import localhost_env

    if args.domain is None:
        args.domain = allocate_domain()

    print(f'MuJoCo simulators at {RATE:g} Hz, {args.duration:g} s per case, '
          f'load average before: {os.getloadavg()[0]:.2f}')
    floor_cpu, floor_rate = floor(args.duration)
    print(f'floor (bare 500 Hz deadline loop): CPU {floor_cpu:5.1f} %, {floor_rate:6.1f} Hz')
    rtf_step = capacity(min(args.duration, 5.0), with_message=False)
    rtf_msg = capacity(min(args.duration, 5.0), with_message=True)
    print(f'Adam U MuJoCo capacity (unpaced): physics only RTF {rtf_step:6.2f}, '
          f'physics + lowstate/handstate building RTF {rtf_msg:6.2f}   (target >= 1.0)')

    adam = executable('pnd_adam_sim', 'adam_sim')
    shipped = os.path.join(get_package_share_directory('pnd_adam_sim'), 'config',
                           'adam_sim.yaml')
    env = localhost_env(args.domain)
    results: List[Tuple[str, float, float]] = []
    with tempfile.TemporaryDirectory() as tmp:
        simple_cfg = os.path.join(tmp, 'simple.yaml')
        with open(simple_cfg, 'w', encoding='utf-8') as f:
            f.write('model: {physics_engine: simple, command_timeout: 0.1}\n')
        for label, cfg in (('adam_sim mujoco (shipped config)', shipped),
                           ('adam_sim simple (reference)', simple_cfg)):
            rtf, cpu, _ = run_process([adam, '--config', cfg, '--domain', str(args.domain)],
                                      args.duration, env)
            results.append((label, rtf, cpu))
        sink = HttpSink()
        try:
            cfg = os.path.join(tmp, 'aimrt.yaml')
            with open(cfg, 'w', encoding='utf-8') as f:
                with socket.socket() as s:
                    s.bind(('127.0.0.1', 0))
                    port = s.getsockname()[1]
                json.dump({'listen_port': port, 'state_addresses': [f'127.0.0.1:{sink.port}']}, f)
            exe = executable('aimrt_mujoco_sim', 'aimrt_mujoco_sim')
            rtf, cpu, _ = run_process([exe, '--config', cfg], args.duration, env)
            posts = len(sink.drain())
            results.append((f'aimrt_mujoco_sim (floating, {posts} POSTs received)', rtf, cpu))
        finally:
            sink.close()
    for label, rtf, cpu in results:
        verdict = 'ok' if rtf >= 0.99 else 'BELOW TARGET'
        print(f'{label:55s} RTF {rtf:5.3f} ({verdict}, target >= 0.99 paced)  '
              f'CPU {cpu:5.1f} %  (floor {floor_cpu:.1f} %)')
    print(f'load average after: {os.getloadavg()[0]:.2f}')
    return 0


if __name__ == '__main__':
    sys.exit(main())
