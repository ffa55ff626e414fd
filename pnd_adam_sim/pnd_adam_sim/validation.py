# SPDX-License-Identifier: Apache-2.0
"""
Checks of incoming LowCmd/HandCmd samples, done before anything is applied.

A command either passes whole or is rejected whole with a reason (CommandRejected): the
simulator never applies part of a command. Positions beyond the joint limits are REJECTED,
not clamped: a user whose target is out of range learns it at once instead of watching the
arm stop short.
"""

import math
from typing import Any, Sequence

from pnd_adam_description.joints import (HAND_CLOSED, HAND_DOF, HAND_OPEN, JOINT_LIMITS,
                                         KD_MAX, KI_MAX, KP_MAX, MODE_PR_VALUES,
                                         MOTOR_MODE_DISABLE, MOTOR_MODE_ENABLE)


# Commands travel as float32: a limit like 0.8 arrives as 0.800000011920929, so bounds get
# a tolerance a little above float32 rounding.
_TOL = 1e-6


class CommandRejected(ValueError):
    """
    A command that was not applied; str() is the reason.

    kind names the check that failed without the offending value (e.g. 'motor_cmd[].q
    range'), so that logs can be rate-limited per kind however varied the values are.
    """

    def __init__(self, reason: str, kind: str) -> None:
        super().__init__(reason)
        self.kind = kind


def _check_range(what: str, kind: str, value: float, lo: float, hi: float) -> None:
    if not math.isfinite(value):
        raise CommandRejected(f'{what} is not finite ({value})', f'{kind} not finite')
    if value < lo - _TOL or value > hi + _TOL:
        raise CommandRejected(f'{what}={value:.6g} outside [{lo:g}, {hi:g}]', f'{kind} range')


def validate_lowcmd(cmd: Any, limits: Sequence[Any] = JOINT_LIMITS) -> None:
    """Raise CommandRejected unless every field of a LowCmd_-like object is acceptable."""
    if cmd.mode_pr not in MODE_PR_VALUES:
        raise CommandRejected(f'mode_pr={cmd.mode_pr} is not 0 (serial) or 1 (parallel)',
                              'mode_pr')
    if len(cmd.motor_cmd) != len(limits):
        raise CommandRejected(
            f'motor_cmd has {len(cmd.motor_cmd)} entries, expected {len(limits)}',
            'motor_cmd length')
    for i, (m, lim) in enumerate(zip(cmd.motor_cmd, limits)):
        name = f'motor_cmd[{i}] ({lim.name})'
        if m.mode not in (MOTOR_MODE_DISABLE, MOTOR_MODE_ENABLE):
            raise CommandRejected(f'{name}.mode={m.mode} is not 0 (disable) or 1 (enable)',
                                  'motor_cmd[].mode')
        _check_range(f'{name}.q', 'motor_cmd[].q', m.q, lim.q_min, lim.q_max)
        _check_range(f'{name}.dq', 'motor_cmd[].dq', m.dq, -lim.dq_max, lim.dq_max)
        _check_range(f'{name}.tau', 'motor_cmd[].tau', m.tau, -lim.tau_max, lim.tau_max)
        _check_range(f'{name}.kp', 'motor_cmd[].kp', m.kp, 0.0, KP_MAX)
        _check_range(f'{name}.kd', 'motor_cmd[].kd', m.kd, 0.0, KD_MAX)
        _check_range(f'{name}.ki', 'motor_cmd[].ki', m.ki, 0.0, KI_MAX)


def validate_handcmd(cmd: Any) -> None:
    """Raise CommandRejected unless a HandCmd_-like object is acceptable."""
    if len(cmd.position) != HAND_DOF:
        raise CommandRejected(f'position has {len(cmd.position)} entries, expected {HAND_DOF}',
                              'position length')
    for i, p in enumerate(cmd.position):
        if p < HAND_CLOSED or p > HAND_OPEN:
            raise CommandRejected(
                f'position[{i}]={p} outside [{HAND_CLOSED}, {HAND_OPEN}]', 'position[] range')
