# SPDX-License-Identifier: Apache-2.0
"""Validation of /hb50/joint_command: a command is accepted whole or rejected whole."""

from dataclasses import dataclass
from functools import lru_cache
import math
from typing import Any, Dict, Optional, Sequence, Tuple, TypeAlias, Union

import numpy as np

from .arrays import BoolArray, FloatArray
from .layout import EFFORT_LIMIT, VELOCITY_LIMIT
from .reporting import quote

ARRAY_FIELDS = ('kp', 'ki', 'kd', 't_pos', 't_vel', 't_trq', 'brake')

# A source_node is a ROS node name (at most 255 characters); a longer one is not a source.
MAX_SOURCE_LENGTH = 255


class InvalidCommand(ValueError):
    """A JointCommand that must not be applied; str(exc) is the reason reported."""


@dataclass(frozen=True)
class GainLimits:
    """Limits a command must respect: gains and targets (bridge_node parameters)."""

    kp_max: float = 500.0   # N*m/rad
    kd_max: float = 10.0    # N*m*s/rad
    ki_max: float = 0.0     # ki is reserved by the vendor: only 0 is accepted by default
    # rad, t_pos range of (j0 hip abduction, j1 hip flexion, j2 knee), the same on every leg:
    # the mechanical envelope of the simulated leg (the stand pose is 0, 0.84, -1.68).
    position_min: Tuple[float, ...] = (-1.0, -2.0, -3.0)
    position_max: Tuple[float, ...] = (1.0, 3.0, 0.5)
    # |t_vel| <= velocity_limit (rad/s) and |t_trq| <= effort_limit (N*m): the actuator
    # limits (the same parameters as the simulated actuators').
    velocity_limit: float = VELOCITY_LIMIT
    effort_limit: float = EFFORT_LIMIT


@dataclass(frozen=True)
class ValidCommand:
    """A validated command as float64/bool arrays in the configured actuator order."""

    source: str
    kp: FloatArray
    kd: FloatArray
    t_pos: FloatArray
    t_vel: FloatArray
    t_trq: FloatArray
    brake: BoolArray


# The scalar bounds (field, low, high) and the per-joint t_pos (low, high) of _plain_bounds.
PlainBounds: TypeAlias = Tuple[Tuple[Tuple[str, float, float], ...],
                               Tuple[Tuple[float, float], ...]]


def _check_range(field: str, values: FloatArray, low: Union[float, FloatArray],
                 high: Union[float, FloatArray]) -> None:
    bad = np.flatnonzero((values < low) | (values > high))
    if bad.size:
        i = bad[0]
        lo = low[i] if isinstance(low, np.ndarray) else low
        hi = high[i] if isinstance(high, np.ndarray) else high
        raise InvalidCommand(f'{field}[{i}]={values[i]:g} out of range [{lo:g}, {hi:g}]')


@lru_cache(maxsize=8)
def _plain_bounds(limits: GainLimits, n: int) -> Optional[PlainBounds]:
    """Return ((field, low, high) of the scalar bounds, per-joint t_pos (low, high)) or None."""
    bounds: Tuple[Tuple[str, float, float], ...] = (
        ('kp', 0.0, limits.kp_max), ('kd', 0.0, limits.kd_max), ('ki', 0.0, limits.ki_max),
        ('t_vel', -limits.velocity_limit, limits.velocity_limit),
        ('t_trq', -limits.effort_limit, limits.effort_limit))
    low = [float(v) for v in np.resize(np.asarray(limits.position_min, float), n)]
    high = [float(v) for v in np.resize(np.asarray(limits.position_max, float), n)]
    if not all(math.isfinite(v) for v in [b for _, lo, hi in bounds for b in (lo, hi)]
               + low + high):
        return None     # an infinite limit would let inf through: the numpy path decides
    return bounds, tuple(zip(low, high))


def _within_plain(msg: Any, n: int, limits: GainLimits) -> bool:
    """
    Check with plain floats that every number is inside its (finite) bounds.

    Then the numpy checks cannot fail (inside finite bounds = finite); False sends the
    command through them, which find the reason. Far cheaper than numpy for 12 joints.
    """
    try:
        plain = _plain_bounds(limits, n)
    except TypeError:   # unhashable limits (lists): no cached bounds
        return False
    if plain is None:
        return False
    bounds, positions = plain
    try:
        for field, low, high in bounds:
            if not all(low <= v <= high for v in getattr(msg, field)):
                return False
        return all(low <= v <= high for v, (low, high) in zip(msg.t_pos, positions))
    except TypeError:   # not numbers: the numpy path converts or rejects them
        return False


def validate(msg: Any, joint_names: Sequence[str], limits: GainLimits,
             plain: bool = True) -> ValidCommand:
    """
    Return a ValidCommand for a JointCommand-like `msg`, or raise InvalidCommand.

    Checks, in order: source_node present and at most 255 characters; every array has one
    entry per actuator; names equal the configured order; every number finite;
    0 <= gain <= its limit; every target inside the joint limits (position range per joint,
    |t_vel| <= velocity_limit, |t_trq| <= effort_limit). Untrusted text in the reason is
    clipped (reporting.quote), so a reason is short whatever the message holds.
    `plain=False` skips the plain-float pre-check (same results; tests compare the two).
    """
    source = msg.source_node
    if not source:
        raise InvalidCommand('empty source_node')
    if len(source) > MAX_SOURCE_LENGTH:
        raise InvalidCommand(f'source_node has {len(source)} characters, more than '
                             f'{MAX_SOURCE_LENGTH}')
    n = len(joint_names)
    names = msg.name
    if len(names) != n:
        raise InvalidCommand(f'name has {len(names)} entries, expected {n}')
    for field in ARRAY_FIELDS:
        length = len(getattr(msg, field))
        if length != n:
            raise InvalidCommand(f'{field} has {length} entries, expected {n}')
    if tuple(names) != tuple(joint_names):
        i, got, want = next((i, g, w) for i, (g, w) in enumerate(zip(names, joint_names))
                            if g != w)
        raise InvalidCommand(f'name[{i}] is {quote(got)}, expected {want!r} '
                             '(configured order)')
    if plain and _within_plain(msg, n, limits):
        brake = np.array(msg.brake, dtype=bool)
        kp, kd, t_pos, t_vel, t_trq = (np.asarray(getattr(msg, field), dtype=np.float64)
                                       for field in ('kp', 'kd', 't_pos', 't_vel', 't_trq'))
        return ValidCommand(source, kp, kd, t_pos, t_vel, t_trq, brake)
    arrays: Dict[str, FloatArray] = {}
    for field in ARRAY_FIELDS[:-1]:
        values = np.asarray(getattr(msg, field), dtype=np.float64)
        bad = np.flatnonzero(~np.isfinite(values))
        if bad.size:
            raise InvalidCommand(f'{field}[{bad[0]}] is not finite ({values[bad[0]]})')
        arrays[field] = values
    for field, high in (('kp', limits.kp_max), ('kd', limits.kd_max), ('ki', limits.ki_max)):
        _check_range(field, arrays[field], 0.0, high)
    _check_range('t_pos', arrays['t_pos'], np.resize(np.asarray(limits.position_min, float), n),
                 np.resize(np.asarray(limits.position_max, float), n))
    _check_range('t_vel', arrays['t_vel'], -limits.velocity_limit, limits.velocity_limit)
    _check_range('t_trq', arrays['t_trq'], -limits.effort_limit, limits.effort_limit)
    brake = np.array(msg.brake, dtype=bool)
    return ValidCommand(source, arrays['kp'], arrays['kd'], arrays['t_pos'], arrays['t_vel'],
                        arrays['t_trq'], brake)


def damping_command(n: int, kd: float, source: str = 'safe_damping') -> ValidCommand:
    """Return the safe damping command: no stiffness, no torque, only velocity damping."""
    zeros = np.zeros(n)
    return ValidCommand(source, zeros, np.full(n, float(kd)), zeros, zeros, zeros,
                        np.zeros(n, dtype=bool))
