# SPDX-License-Identifier: Apache-2.0
"""
The command watchdog of a simulated robot: no valid command for a while -> safe damping.

Time is the simulation's own (seconds of simulated time, never the wall clock). When no
valid command arrived for longer than `timeout` (and before the first one), every joint is
in safe damping: stiffness 0, damping `damping_kd`, target position, velocity and
feed-forward effort 0. The next valid command takes over at once. A timeout of 0 turns the
watchdog off: the last command stays in force forever.
"""

from typing import NamedTuple, Optional

import numpy as np
import numpy.typing as npt

FloatArray = npt.NDArray[np.float64]

# Simulated times are sums of periods: a command exactly `timeout` ago is still in force.
EPSILON = 1e-9


class JointLaw(NamedTuple):
    """Per-joint law tau = tau + kp * (q - q_now) + kd * (dq - dq_now), arrays of equal length."""

    kp: FloatArray
    kd: FloatArray
    q: FloatArray
    dq: FloatArray
    tau: FloatArray


class CommandWatchdog:
    """Whether the last valid command is too old, in simulated time, and the law then."""

    def __init__(self, timeout: float, damping_kd: float, joints: int) -> None:
        """Watch commands for `joints` joints; `timeout` s (0: never time out)."""
        self.timeout = float(timeout)
        self.damping_kd = float(damping_kd)
        self.joints = joints
        self.last_command: Optional[float] = None   # simulated time of the last valid one
        self.timed_out = self.timeout > 0           # safe damping until the first command
        self.timeouts = 0                           # transitions into it after a command

    def feed(self, now: float) -> None:
        """Note a valid command at simulated time `now`: out of safe damping at once."""
        self.last_command = now
        self.timed_out = False

    def expired(self, now: float) -> bool:
        """Whether safe damping is due at simulated time `now` (changes no state)."""
        return self.timeout > 0 and (self.last_command is None
                                     or now - self.last_command > self.timeout + EPSILON)

    def check(self, now: float) -> bool:
        """Return expired(now) and keep it in timed_out; count the transitions into it."""
        expired = self.expired(now)
        if expired and not self.timed_out:
            self.timeouts += 1
        self.timed_out = expired
        return expired

    def damping(self) -> JointLaw:
        """Return the safe-damping law (new arrays): kp 0, kd damping_kd, targets 0."""
        zeros = np.zeros(self.joints)
        return JointLaw(zeros, np.full(self.joints, self.damping_kd), zeros, zeros, zeros)
