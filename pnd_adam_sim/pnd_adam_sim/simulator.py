# SPDX-License-Identifier: Apache-2.0
"""
Robot-side simulator of the PND Adam U on plain Cyclone DDS (no ROS 2 in this process).

Publishes rt/lowstate and rt/handstate at a fixed rate and consumes rt/lowcmd and
rt/handcmd, with the vendor's IDL types (vendor_idl) and Cyclone's default QoS, like the
robot. Network settings come from Cyclone's usual CYCLONEDDS_URI (none = Cyclone defaults).
Run:  ros2 run pnd_adam_sim adam_sim [--config FILE] [--domain N] [--rate HZ]
"""

import argparse
from dataclasses import fields
import logging
import sys
import threading
import time
from typing import Any, Optional, Sequence

from cyclonedds.domain import DomainParticipant
from cyclonedds.pub import DataWriter
from cyclonedds.topic import Topic
from node_runtime.loop import DeadlineLoop
from pnd_adam_description.joints import NUM_JOINTS
from sim_runtime import program
import yaml

from .intake import CommandIntake
from .model import AdamModel, ModelConfig
from .state_cdr import StateEncoder, write_serialized
from .vendor_idl import (BatteryData_, HandCmd_, HandState_, IMUState_, LowCmd_, LowState_,
                         MotorCmd_, MotorState_, namespaced, TOPIC_HANDCMD, TOPIC_HANDSTATE,
                         TOPIC_LOWCMD, TOPIC_LOWSTATE)

LOG = logging.getLogger('adam_sim')

DEFAULTS: dict[str, Any] = {
    # The vendor's user-facing ROS 2 domain is 2 (INTERFACES.md §3); override per run.
    'domain_id': 2,
    'rate_hz': 500.0,
    'model': {},
}


def load_config(path: Optional[str] = None,
                overrides: Optional[dict[str, Any]] = None) -> dict[str, Any]:
    """Merge DEFAULTS, an optional YAML file and command-line overrides (None = keep)."""
    cfg: dict[str, Any] = {k: (dict(v) if isinstance(v, dict) else v)
                           for k, v in DEFAULTS.items()}
    if path:
        with open(path, encoding='utf-8') as f:
            data = yaml.safe_load(f) or {}
        unknown = set(data) - set(DEFAULTS)
        if unknown:
            raise ValueError(f'unknown keys in {path}: {sorted(unknown)}')
        cfg['model'].update(data.pop('model', None) or {})
        cfg.update(data)
    for k, v in (overrides or {}).items():
        if v is not None:
            cfg[k] = v
    known = {f.name for f in fields(ModelConfig)}
    bad = set(cfg['model']) - known
    if bad:
        raise ValueError(f'unknown model keys: {sorted(bad)}')
    m = cfg['model']
    if len(m.get('wireless_remote', [0] * 40)) != 40:
        raise ValueError('model.wireless_remote needs 40 values')
    for k in ('imu_ypr', 'imu_gyro_bias'):
        if len(m.get(k, [0, 0, 0])) != 3:
            raise ValueError(f'model.{k} needs 3 values')
    if not cfg['rate_hz'] > 0:
        raise ValueError(f"rate_hz must be > 0, got {cfg['rate_hz']}")
    if not 0 <= int(cfg['domain_id']) <= 232:
        raise ValueError(f"domain_id must be 0..232, got {cfg['domain_id']}")
    return cfg


def lowstate_from_model(model: AdamModel) -> LowState_:
    """Return the model's LowState_ as an object (state_cdr packs the same bytes faster)."""
    quat, gyro, acc, ypr, temp = model.imu()
    modes = model.motor_modes()
    q, dq, ddq, tau = model.q, model.dq, model.ddq, model.tau
    motors = [MotorState_(mode=modes[i], q=float(q[i]), dq=float(dq[i]), ddq=float(ddq[i]),
                          tau_est=float(tau[i]), state=0, reserve=0)
              for i in range(len(q))]
    battery = BatteryData_(timestamp_ms=model.timestamp_ms(), voltage=model.voltage,
                           current=model.current, power=model.power,
                           wh_accumulated=model.wh_accumulated,
                           status=model.battery_status())
    return LowState_(mode_pr=model.mode_pr, tick=model.tick,
                     imu_state=IMUState_(quaternion=quat, gyroscope=gyro,
                                         accelerometer=acc, ypr=ypr, temperature=temp),
                     motor_state=motors, wireless_remote=model.wireless_remote(),
                     battery_data=battery, reserve=0)


def handstate_from_model(model: AdamModel) -> HandState_:
    """Return the model's HandState_ (positions rounded to integers)."""
    return HandState_(position=[int(round(p)) for p in model.hand], reserve=0)


class AdamSimulator:
    """DDS endpoints + fixed-rate loop around an AdamModel."""

    def __init__(self, domain_id: int, rate_hz: float, model: Optional[AdamModel] = None,
                 trace: bool = False, stop: Optional[threading.Event] = None,
                 namespace: str = '', trace_file: Optional[str] = None) -> None:
        """
        Join `domain_id` and create the endpoints; tick at rate_hz once run.

        trace (or a trace_file, written by finish()) records every lowstate's write time.
        """
        self.rate_hz = float(rate_hz)
        self.domain_id = int(domain_id)
        # The vendor's topics, under a ROS namespace for several robots on one domain.
        self.topics = tuple(namespaced(t, namespace) for t in (
            TOPIC_LOWSTATE, TOPIC_HANDSTATE, TOPIC_LOWCMD, TOPIC_HANDCMD))
        lowstate, handstate, lowcmd, handcmd = self.topics
        # (tick, wall-clock ns just after the write) of every lowstate, for latency
        # measurements by a receiver on the same host (benchmarks/pnd_lowstate.py).
        self.trace: Optional[list[tuple[int, int]]] = [] if trace or trace_file else None
        self.trace_file = trace_file
        self.model = model or AdamModel()
        self.dp = DomainParticipant(self.domain_id)
        self.lowstate_writer = DataWriter(self.dp, Topic(self.dp, lowstate, LowState_))
        self.handstate_writer = DataWriter(self.dp, Topic(self.dp, handstate, HandState_))
        # Samples are applied in arrival order, so the last valid one wins; a bad one is
        # dropped whole (oversized ones before they are decoded) and the previous command
        # stays in force.
        self.lowcmd_intake = CommandIntake(
            LowCmd_, LowCmd_(motor_cmd=[MotorCmd_()] * NUM_JOINTS), self.model.apply_lowcmd,
            'lowcmd').subscribe(self.dp, lowcmd)
        self.handcmd_intake = CommandIntake(
            HandCmd_, HandCmd_(), self.model.apply_handcmd, 'handcmd').subscribe(
                self.dp, handcmd)
        self.reject_lowcmd = self.lowcmd_intake.rejections
        self.reject_handcmd = self.handcmd_intake.rejections
        # lowstate/handstate are packed as bytes (state_cdr): the same bytes as
        # lowstate_from_model(...) through DataWriter.write, a fraction of the cost.
        self.encoder = StateEncoder()
        self.overruns = 0
        self.stop_event = stop if stop is not None else threading.Event()

    def tick(self) -> None:
        """Take the waiting commands, step the model once, write lowstate and handstate."""
        self.lowcmd_intake.drain()
        self.handcmd_intake.drain()
        timeouts = self.model.timeouts
        # Always the nominal period: a late tick never integrates the wall-clock gap.
        self.model.step(1.0 / self.rate_hz)
        if self.model.timeouts != timeouts:
            LOG.warning('no valid lowcmd for %g s: safe damping (kp=0, kd=%g, tau=0) until '
                        'the next one', self.model.cfg.command_timeout,
                        self.model.cfg.damping_kd)
        write_serialized(self.lowstate_writer, self.encoder.lowstate(self.model))
        if self.trace is not None:
            self.trace.append((self.model.tick, time.time_ns()))
        write_serialized(self.handstate_writer, self.encoder.handstate(self.model))

    def write_trace(self, path: str) -> None:
        """Write the trace as CSV: tick,write_time_ns."""
        with open(path, 'w', encoding='utf-8') as f:
            f.write('tick,write_time_ns\n')
            f.writelines(f'{t},{ns}\n' for t, ns in self.trace or ())

    def run(self, duration: Optional[float] = None) -> None:
        """
        Tick at rate_hz until stopped or for a duration (round(duration * rate_hz) ticks).

        node_runtime's DeadlineLoop in this thread: it sleeps on stop_event to absolute
        deadlines (no busy-wait, no drift with the work per tick) and after a VM stall of
        more than a tick skips the missed ticks instead of bursting to catch up (counted in
        overruns, one per stall).
        """
        ticks = None if duration is None else max(1, round(duration * self.rate_hz))
        loop = DeadlineLoop(1.0 / self.rate_hz, lambda deadline: self.tick(),
                            raise_errors=True)
        try:
            loop.run_until_set(self.stop_event, ticks)
        finally:
            self.overruns += loop.stalls

    def close(self) -> None:
        """Delete the participant (it tears down its readers and writers)."""
        del self.lowstate_writer, self.handstate_writer, self.lowcmd_intake, self.handcmd_intake
        del self.reject_lowcmd, self.reject_handcmd, self.dp

    # -- sim_runtime.program ----------------------------------------------------------
    def start(self) -> None:
        """Do nothing: the loop is all there is, and run() runs it."""

    def running(self) -> str:
        """Return the start-up line of the log."""
        cfg = self.model.cfg
        timeout = f'{cfg.command_timeout:g} s' if cfg.command_timeout > 0 else 'off'
        lowstate, handstate, lowcmd, handcmd = self.topics
        return (f'running: domain {self.domain_id:d}, {self.rate_hz:g} Hz, publishing '
                f'{lowstate} {handstate}, subscribed to {lowcmd} {handcmd}; physics '
                f'{cfg.physics_engine} (base {cfg.base}), command timeout {timeout}')

    def finish(self) -> str:
        """Return the summary line of the log; close(), then write the trace file if any."""
        m = self.model
        summary = (f'stopped after {m.tick:d} ticks: lowcmd applied {m.lowcmd_applied:d} '
                   f'rejected {self.reject_lowcmd.count:d}, handcmd applied '
                   f'{m.handcmd_applied:d} rejected {self.reject_handcmd.count:d}, '
                   f'{self.overruns:d} overruns')
        self.close()
        if self.trace_file:
            self.write_trace(self.trace_file)
        return summary


def _add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument('--domain', type=int, dest='domain_id', help='DDS domain id')
    p.add_argument('--rate', type=float, dest='rate_hz', help='state rate in Hz')
    p.add_argument('--namespace', default='',
                   help='ROS namespace of the topics (e.g. /robot1: DDS rt/robot1/lowstate, '
                        'ROS /robot1/lowstate); default none, as on the robot')
    p.add_argument('--trace-file', help='write "tick,write_time_ns" of every lowstate to this '
                   'CSV file on exit (for latency measurements)')


def _parse_args(argv: Sequence[str]) -> argparse.Namespace:
    return program.parse_args('adam_sim', __doc__.splitlines()[0] if __doc__ else '', argv,
                              _add_arguments, config_help='YAML file (see '
                              'share/pnd_adam_sim/config/adam_sim.yaml)')


def main(argv: Optional[Sequence[str]] = None) -> int:
    """
    Run the simulator until SIGINT/SIGTERM (or --duration); return the exit status.

    node_runtime.runner's rule: 0 on a stop or at the end of --duration, 2 with one stderr
    line for a bad configuration, 1 for any other failure.
    """
    args = _parse_args(sys.argv[1:] if argv is None else argv)
    return program.main('adam_sim', lambda: _run(args))


def _build(args: argparse.Namespace, cfg: dict[str, Any],
           stop: threading.Event) -> AdamSimulator:
    model = AdamModel(ModelConfig(**cfg['model']), timestep=1.0 / cfg['rate_hz'])
    namespaced(TOPIC_LOWSTATE, args.namespace)      # a bad namespace is a bad configuration
    return AdamSimulator(cfg['domain_id'], cfg['rate_hz'], model, stop=stop,
                         namespace=args.namespace, trace_file=args.trace_file)


def _run(args: argparse.Namespace) -> None:
    program.run_simulation(
        LOG, args,
        lambda: load_config(args.config, {'domain_id': args.domain_id, 'rate_hz': args.rate_hz}),
        lambda cfg, stop: _build(args, cfg, stop),
        config_errors=(OSError, ValueError, yaml.YAMLError))


if __name__ == '__main__':
    sys.exit(main())
