# SPDX-License-Identifier: Apache-2.0
"""
Minimum-jerk point-to-point interpolation.

Minimum-jerk point-to-point interpolation (zero velocity and acceleration at both ends),
so the arms start and stop without a jolt whatever the gains.
"""

from typing import List, Sequence, Tuple


def min_jerk(start: Sequence[float], goal: Sequence[float], t: float,
             duration: float) -> Tuple[List[float], List[float]]:
    """Return (positions, velocities) at time t of a move from start to goal (sequences)."""
    if duration <= 0.0 or t >= duration:
        return list(goal), [0.0] * len(goal)
    s = max(t, 0.0) / duration
    shape = s ** 3 * (10.0 - 15.0 * s + 6.0 * s * s)
    rate = 30.0 * s * s * (1.0 - s) ** 2 / duration
    q = [a + (b - a) * shape for a, b in zip(start, goal)]
    dq = [(b - a) * rate for a, b in zip(start, goal)]
    return q, dq
