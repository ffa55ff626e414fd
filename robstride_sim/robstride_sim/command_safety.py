# SPDX-License-Identifier: Apache-2.0
"""
Command safety of the hardware interface: what is checked before any frame is encoded.

check_command() refuses a joint command whole (CommandError with its reason) when a commanded
joint's last feedback is older than max_feedback_age_s, a value is NaN/inf or outside the
model's range, or the names or lengths do not fit; unsafe_motion() checks a motion frame's
five fields against the model once more (RobstrideHardware.write sends nothing it refuses).
"""
import math
from typing import List, Mapping, Optional, Sequence

from .hardware_errors import CommandError
from .hardware_joints import JointRuntime
from .logbound import clip
from .models import MotorModel, P_MAX


def check_command(joints: Sequence[JointRuntime], by_name: Mapping[str, JointRuntime],
                  names: Sequence[str], positions: Sequence[float],
                  velocities: Sequence[float], efforts: Sequence[float],
                  now: Optional[float], max_feedback_age_s: float) -> None:
    """
    Raise CommandError unless the joint command can be applied whole.

    ``by_name`` maps the names of ``joints`` to them; names empty means all joints in joint
    order; ``now`` None counts as no feedback yet.
    """
    if not names:
        names = [j.cfg.name for j in joints]
    if len(names) > len(joints) or len(set(names)) != len(names):
        raise CommandError(f'{len(names)} joint names with duplicates or more than the '
                           f'{len(joints)} configured joints')
    targets: List[JointRuntime] = []
    for name in names:
        if not isinstance(name, str) or name not in by_name:
            raise CommandError(f'unknown joint {clip(name)}')
        targets.append(by_name[name])
    fields = (('position', positions, lambda m: P_MAX), ('velocity', velocities,
              lambda m: m.v_max), ('effort', efforts, lambda m: m.t_max))
    for label, values, limit in fields:
        if len(values) not in (0, len(names)):
            raise CommandError(f'{label} has {len(values)} values for {len(names)} joints')
        for j, v in zip(targets, values):
            top = limit(j.cfg.model)
            if not math.isfinite(v):
                raise CommandError(f'{j.cfg.name}: {label} {v} is not finite',
                                   'non_finite')
            if abs(v) > top:
                raise CommandError(f'{j.cfg.name}: {label} {v:g} outside +-{top:g}',
                                   'out_of_range')
    for j in targets:
        age = None if j.last_feedback is None or now is None else now - j.last_feedback
        if age is None or age > max_feedback_age_s:
            shown = 'no feedback yet' if age is None else f'last feedback {age:.3f} s ago'
            raise CommandError(f'{j.cfg.name}: {shown} (limit '
                               f'{max_feedback_age_s:g} s)', 'stale')


def unsafe_motion(model: MotorModel, position: float, velocity: float, kp: float,
                  kd: float, torque: float) -> str:
    """Return why a motion frame with these fields is unsafe for ``model`` ('': safe)."""
    # Every bound is finite, so values within all of them are finite too (NaN fails
    # every comparison): the usual case, decided without building the table below.
    v_max, t_max = model.v_max, model.t_max
    if (-P_MAX <= position <= P_MAX and -v_max <= velocity <= v_max
            and 0.0 <= kp <= model.kp_max and 0.0 <= kd <= model.kd_max
            and -t_max <= torque <= t_max and math.isfinite(v_max + t_max + model.kp_max
                                                            + model.kd_max)):
        return ''
    for label, value, low, high in (
            ('position', position, -P_MAX, P_MAX),
            ('velocity', velocity, -model.v_max, model.v_max),
            ('kp', kp, 0.0, model.kp_max), ('kd', kd, 0.0, model.kd_max),
            ('torque', torque, -model.t_max, model.t_max)):
        if not math.isfinite(value) or not low <= value <= high:
            return f'{label} {value} outside [{low:g}, {high:g}]'
    return ''
