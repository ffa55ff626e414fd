# SPDX-License-Identifier: Apache-2.0
"""JointCommand checks and the per-joint targets they set, behind the command watchdog."""

import math
import threading
from typing import Any, Optional, Sequence

import numpy as np
from sim_runtime.watchdog import CommandWatchdog, FloatArray

# (index, (position, velocity, effort, stiffness, damping)) of one checked joint command
Entry = tuple[int, tuple[float, float, float, float, float]]
# (applied commands, timed out): names the law JointTargets.law_since handed out
LawKey = tuple[int, bool]
Law = tuple[FloatArray, FloatArray, FloatArray, FloatArray, FloatArray, bool]
KeyedLaw = tuple[LawKey, FloatArray, FloatArray, FloatArray, FloatArray, FloatArray, bool]


class CommandError(ValueError):
    """A JointCommand that must not reach the actuators (HTTP 422)."""


class JointTargets:
    """Per-joint PD targets set by JointCommand (by joint name), with the command timeout."""

    def __init__(self, limits: Sequence[Any], command_timeout: float,
                 damping_kd: float) -> None:
        """Targets of the joints of `limits` (pnd_adam_description.joints.JointLimits)."""
        from pnd_adam_description.joints import KD_MAX, KP_MAX
        self.limits = {lim.name: (i, lim) for i, lim in enumerate(limits)}
        self.kp_max: float = KP_MAX
        self.kd_max: float = KD_MAX
        n = len(limits)
        self.q = np.zeros(n)
        self.dq = np.zeros(n)
        self.tau = np.zeros(n)
        self.timeout = command_timeout
        self.watchdog = CommandWatchdog(command_timeout, damping_kd, n)
        self.damping = np.full(n, float(damping_kd))
        # A joint no command has named yet stays in safe damping.
        self.kp = np.zeros(n)
        self.kd = self.damping.copy()
        self.lock = threading.Lock()
        self.accepted = 0

    @property
    def last_time(self) -> Optional[float]:
        """Return the simulated time of the last applied command (None before the first)."""
        return self.watchdog.last_command

    def check(self, msg: Any) -> list[Entry]:
        """[(index, values)] of a JointCommand; CommandError unless every entry is valid."""
        if not msg.joints:
            raise CommandError('JointCommand has no joints')
        out: list[Entry] = []
        seen: set[str] = set()
        for j in msg.joints:
            if j.name not in self.limits:
                raise CommandError(f'unknown joint {j.name!r}')
            if j.name in seen:
                raise CommandError(f'joint {j.name!r} twice')
            seen.add(j.name)
            i, lim = self.limits[j.name]
            values = (j.position, j.velocity, j.effort, j.stiffness, j.damping)
            if not all(math.isfinite(v) for v in values):
                raise CommandError(f'{j.name}: non-finite value')
            tol = 1e-9
            if not lim.q_min - tol <= j.position <= lim.q_max + tol:
                raise CommandError(f'{j.name}: position {j.position:g} outside '
                                   f'[{lim.q_min:g}, {lim.q_max:g}]')
            if abs(j.velocity) > lim.dq_max + tol or abs(j.effort) > lim.tau_max + tol:
                raise CommandError(f'{j.name}: velocity or effort beyond '
                                   f'{lim.dq_max:g} rad/s / {lim.tau_max:g} N*m')
            if not (0 <= j.stiffness <= self.kp_max and 0 <= j.damping <= self.kd_max):
                raise CommandError(f'{j.name}: stiffness/damping outside [0, {self.kp_max:g}]'
                                   f' / [0, {self.kd_max:g}]')
            out.append((i, values))
        return out

    def apply(self, entries: Sequence[Entry], now: float) -> None:
        """Apply checked entries at simulated time `now` (the watchdog is fed)."""
        with self.lock:
            for i, (q, dq, tau, kp, kd) in entries:
                self.q[i], self.dq[i], self.tau[i], self.kp[i], self.kd[i] = q, dq, tau, kp, kd
            self.watchdog.feed(now)
            self.accepted += 1

    def law(self, now: float) -> Law:
        """(kp, kd, q, dq, tau, timed_out) for the next physics step at sim time now."""
        law = self.law_since(now, None)
        assert law is not None      # no key: always a law
        return law[1:]

    def law_since(self, now: float, key: Optional[LawKey]) -> Optional[KeyedLaw]:
        """
        (key, kp, kd, q, dq, tau, timed_out) at sim time now, or None if key is still current.

        key names the law (the count of applied commands and whether they timed out): a
        caller that holds the law of `key` is told only when it changed, and nothing is
        copied on the ticks between commands.
        """
        with self.lock:
            timed_out = self.watchdog.expired(now)
            current = (self.accepted, timed_out)
            if current == key:
                return None
            if timed_out:
                return (current, *self.watchdog.damping(), True)
            return (current, self.kp.copy(), self.kd.copy(), self.q.copy(), self.dq.copy(),
                    self.tau.copy(), False)
