# SPDX-License-Identifier: Apache-2.0
"""
bridge_node's logic without ROS: validation -> arbitration -> watchdog -> simulation.

Events are (level, text) tuples that bridge_node publishes on /hb50/status.
"""

from dataclasses import dataclass
from typing import Any, List, Optional, Tuple, Union

from . import levels
from .arbitration import Arbiter
from .drives import SimConfig
from .kinematics import LegGeometry
from .layout import JOINT_NAMES
from .levels import Event
from .physics import make_sim
from .validation import damping_command, GainLimits, InvalidCommand, validate, ValidCommand

# What check() returns: the command to arbitrate, or why it is refused.
Checked = Union[ValidCommand, InvalidCommand]


@dataclass(frozen=True)
class BridgeConfig:
    command_timeout: float = 0.1      # s without any valid command -> safe damping
    damping_kd: float = 1.0           # N*m*s/rad used in safe damping
    reject_report_period: float = 0.2  # s; one reason is re-reported at most this often
    joint_names: Tuple[str, ...] = JOINT_NAMES


class BridgeCore:

    def __init__(self, cfg: BridgeConfig, sim_cfg: SimConfig, geo: LegGeometry,
                 limits: GainLimits, arbiter: Optional[Arbiter], now: float) -> None:
        self.cfg = cfg
        self.limits = limits
        self.sim = make_sim(sim_cfg, geo)
        self.arbiter = arbiter if arbiter is not None else Arbiter()
        self.damping = damping_command(len(cfg.joint_names), cfg.damping_kd)
        self.command = self.damping
        self.damped = True          # no command yet: start passive
        self.last_valid: Optional[float] = None
        self.rejected = 0
        self.applied = 0
        self.start = now
        self._last_reject = ('', -1e9)

    def on_command(self, msg: Any, now: float) -> List[Event]:
        """Validate and arbitrate one JointCommand; returns the events to report."""
        return self.accept(msg, self.check(msg), now)

    def check(self, msg: Any, limits: Optional[GainLimits] = None) -> Checked:
        """
        Validate only: return the ValidCommand or the InvalidCommand.

        Against `limits` (default: the current ones). It reads no other mutable state, so
        bridge_node runs it outside the lock the 500 Hz loop waits for.
        """
        try:
            return validate(msg, self.cfg.joint_names,
                            self.limits if limits is None else limits)
        except InvalidCommand as exc:
            # Without its traceback: bridge_node keeps the last result, and the traceback's
            # frames would keep every earlier one alive (a chain that grew by a message per
            # rejected command: +14 MB over 2000 of them, benchmarks/README.md issue 40).
            exc.__context__ = exc.__cause__ = None
            return exc.with_traceback(None)

    def reconfigure(self, cfg: BridgeConfig, limits: GainLimits) -> None:
        """Take new run-time settings (timeouts, damping gain, limits); the state is kept."""
        if cfg.damping_kd != self.cfg.damping_kd:
            damping = damping_command(len(cfg.joint_names), cfg.damping_kd)
            if self.command is self.damping:
                self.command = damping
            self.damping = damping
        self.cfg, self.limits = cfg, limits

    def accept(self, msg: Any, checked: Checked, now: float) -> List[Event]:
        """Counts/reports a rejection or arbitrates a ValidCommand (the result of check(msg))."""
        if isinstance(checked, InvalidCommand):
            exc = checked
            self.rejected += 1
            reason, last = self._last_reject
            if str(exc) != reason or now - last >= self.cfg.reject_report_period:
                self._last_reject = (str(exc), now)
                return [(levels.ERROR, f'rejected command from {msg.source_node!r}: {exc} '
                         f'(rejected so far: {self.rejected})')]
            return []
        cmd = checked
        # Any valid command counts for the watchdog, applied or not: while control_node keeps
        # sending, a custom source falling silent hands over (after the arbitration gap)
        # without a damping interlude.
        self.last_valid = now
        apply, events = self.arbiter.offer(cmd.source, now)
        if apply:
            self.command = cmd
            self.applied += 1
            if self.damped:
                self.damped = False
                events.append((levels.OK, f'valid commands from {cmd.source}: drives enabled'))
        return events

    def step(self, now: float, dt: float) -> List[Event]:
        """Check the watchdog and advance the simulation; returns the events to report."""
        events = self.arbiter.poll(now)
        if not self.damped and (self.last_valid is None
                                or now - self.last_valid > self.cfg.command_timeout):
            self.damped = True
            self.command = self.damping
            events.append((levels.WARN, f'no valid command for '
                           f'{self.cfg.command_timeout * 1e3:.0f} ms: safe damping '
                           f'(kp=0, kd={self.cfg.damping_kd:g}), drives disabled'))
        self.sim.step(self.command, dt)
        return events

    @property
    def drives_enabled(self) -> bool:
        return not self.damped

    def status_strings(self) -> List[str]:
        out: List[str] = []
        if self.damped:
            out.append('safe damping: no valid joint command')
        if self.arbiter.active != self.arbiter.primary:
            out.append(f'command source: {self.arbiter.active}')
        if self.rejected:
            out.append(f'rejected commands: {self.rejected}')
        return out
