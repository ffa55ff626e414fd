"""Validation of /hb50/joint_command: a command is accepted whole or rejected whole."""

from dataclasses import dataclass

import numpy as np

ARRAY_FIELDS = ('kp', 'ki', 'kd', 't_pos', 't_vel', 't_trq', 'brake')


class InvalidCommand(ValueError):
    """A JointCommand that must not be applied; str(exc) is the reason reported on /hb50/status."""


@dataclass(frozen=True)
class GainLimits:
    kp_max: float = 500.0   # N*m/rad
    kd_max: float = 10.0    # N*m*s/rad
    ki_max: float = 0.0     # ki is reserved by the vendor: only 0 is accepted by default


@dataclass(frozen=True)
class ValidCommand:
    """A validated command as float64/bool arrays in the configured actuator order."""

    source: str
    kp: np.ndarray
    kd: np.ndarray
    t_pos: np.ndarray
    t_vel: np.ndarray
    t_trq: np.ndarray
    brake: np.ndarray


def validate(msg, joint_names, limits):
    """Return a ValidCommand for a JointCommand-like `msg`, or raise InvalidCommand.

    Checks, in order: source_node present; every array has one entry per actuator; names equal
    the configured order; every number finite; 0 <= gain <= its limit.
    """
    source = msg.source_node
    if not source:
        raise InvalidCommand('empty source_node')
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
        raise InvalidCommand(f'name[{i}] is {got!r}, expected {want!r} (configured order)')
    arrays = {}
    for field in ARRAY_FIELDS[:-1]:
        values = np.asarray(getattr(msg, field), dtype=np.float64)
        bad = np.flatnonzero(~np.isfinite(values))
        if bad.size:
            raise InvalidCommand(f'{field}[{bad[0]}] is not finite ({values[bad[0]]})')
        arrays[field] = values
    for field, high in (('kp', limits.kp_max), ('kd', limits.kd_max), ('ki', limits.ki_max)):
        values = arrays[field]
        bad = np.flatnonzero((values < 0.0) | (values > high))
        if bad.size:
            i = bad[0]
            raise InvalidCommand(
                f'{field}[{i}]={values[i]:g} out of range [0, {high:g}]')
    brake = np.array(msg.brake, dtype=bool)
    return ValidCommand(source, arrays['kp'], arrays['kd'], arrays['t_pos'], arrays['t_vel'],
                        arrays['t_trq'], brake)


def damping_command(n, kd, source='safe_damping'):
    """The safe damping command: no stiffness, no torque, only velocity damping."""
    zeros = np.zeros(n)
    return ValidCommand(source, zeros, np.full(n, float(kd)), zeros, zeros, zeros,
                        np.zeros(n, dtype=bool))
