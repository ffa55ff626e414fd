# SPDX-License-Identifier: Apache-2.0
"""
One joint of the hardware interface: its configuration and its decoded run-time state.

JointConfig is what the parameters give (name, CAN id, model, direction, gains), checked by
validate()/validate_joints(); JointRuntime is what RobstrideHardware keeps per joint (the last
feedback, motor side, and the joint-side targets).
"""
from dataclasses import dataclass, field
import math
from typing import Dict, Optional, Sequence

from .models import MotorModel

RUN_STATE_RESET = 0
RUN_STATE_MOTOR = 2


@dataclass
class JointConfig:
    name: str
    can_id: int
    model: MotorModel
    direction: int = 1
    kp: float = 0.0
    kd: float = 0.0

    def validate(self) -> None:
        """Raise ValueError when the joint's configuration is impossible."""
        if not 1 <= self.can_id <= 127:
            raise ValueError(f'joint {self.name}: CAN id {self.can_id} outside 1..127')
        if self.direction not in (1, -1):
            raise ValueError(f'joint {self.name}: direction must be 1 or -1')
        for gain, top in (('kp', self.model.kp_max), ('kd', self.model.kd_max)):
            value = getattr(self, gain)
            if not math.isfinite(value) or not 0.0 <= value <= top:
                raise ValueError(f'joint {self.name}: {gain} {value} outside [0, {top}] '
                                 f'for {self.model.name}')


@dataclass
class JointRuntime:
    """Decoded state and command bookkeeping of one joint (motor side for state)."""

    cfg: JointConfig
    position: float = 0.0
    velocity: float = 0.0
    torque: float = 0.0
    temperature: float = 0.0
    run_state: int = 0
    fault_bits: int = 0
    last_feedback: Optional[float] = None
    have_feedback: bool = False
    lost: bool = False
    kp: float = 0.0
    kd: float = 0.0
    pending_gains: Dict[str, float] = field(default_factory=dict)
    # Joint-side targets; None until the first feedback sets them to the current position.
    target_position: Optional[float] = None
    target_velocity: float = 0.0
    target_effort: float = 0.0
    last_enable: Optional[float] = None

    @property
    def enabled(self) -> bool:
        """Torqued, as the last feedback says."""
        return self.run_state == RUN_STATE_MOTOR


def validate_joints(joints: Sequence[JointConfig]) -> None:
    """Raise ValueError unless the joints are a usable, unique, valid set."""
    if not joints:
        raise ValueError('at least one joint is required')
    names = [j.name for j in joints]
    ids = [j.can_id for j in joints]
    if len(set(names)) != len(names):
        raise ValueError(f'joint names are not unique: {names}')
    if len(set(ids)) != len(ids):
        raise ValueError(f'CAN ids are not unique: {ids}')
    for j in joints:
        j.validate()
