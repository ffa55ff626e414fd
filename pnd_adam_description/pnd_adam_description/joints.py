# SPDX-License-Identifier: Apache-2.0
"""
Adam U actuator layout, joint limits, command ranges and hand facts (no DDS, no ROS imports).

Joint order is the vendor's (INTERFACES.md §3, seed 002): waist, neck, then the left and the
right arm. The vendor publishes no joint limits for Adam U in the seed or the spec; the
values below are this workspace's own, chosen to be plausible for a humanoid upper body and
to contain 0 (the zero command of a disabled joint is always valid). The simulators check
commands against them and the example node keeps its targets inside them.
"""

from dataclasses import dataclass
from typing import Tuple


@dataclass(frozen=True)
class JointLimit:
    name: str
    q_min: float    # rad
    q_max: float    # rad
    dq_max: float   # rad/s, bound of the commanded velocity
    tau_max: float  # N*m, bound of the feed-forward and of the applied torque


def _arm(side: str, roll_min: float, roll_max: float) -> Tuple[JointLimit, ...]:
    return (
        JointLimit(f'shoulderPitch_{side}', -3.0, 1.5, 10.0, 60.0),
        JointLimit(f'shoulderRoll_{side}', roll_min, roll_max, 10.0, 60.0),
        JointLimit(f'shoulderYaw_{side}', -2.5, 2.5, 10.0, 36.0),
        JointLimit(f'elbow_{side}', -2.3, 0.3, 10.0, 36.0),
        JointLimit(f'wristYaw_{side}', -2.5, 2.5, 10.0, 10.0),
        JointLimit(f'wristPitch_{side}', -0.8, 0.8, 10.0, 10.0),
        JointLimit(f'wristRoll_{side}', -0.8, 0.8, 10.0, 10.0),
    )


JOINT_LIMITS = (
    JointLimit('waistRoll', -0.4, 0.4, 6.0, 120.0),
    JointLimit('waistPitch', -0.4, 1.2, 6.0, 120.0),
    JointLimit('waistYaw', -1.5, 1.5, 6.0, 120.0),
    JointLimit('neckYaw', -1.2, 1.2, 8.0, 10.0),
    JointLimit('neckPitch', -0.5, 0.5, 8.0, 10.0),
) + _arm('Left', -0.3, 2.8) + _arm('Right', -2.8, 0.3)

JOINT_NAMES = tuple(j.name for j in JOINT_LIMITS)
NUM_JOINTS = len(JOINT_NAMES)  # 19 on Adam U
assert NUM_JOINTS == 19

WAIST = (0, 1, 2)           # waistRoll, waistPitch, waistYaw
NECK = (3, 4)               # neckYaw, neckPitch
LEFT_ARM = tuple(range(5, 12))
RIGHT_ARM = tuple(range(12, 19))

# Gain ranges accepted in MotorCmd (inclusive; the simulators' bounds, not vendor data). ki is
# reserved by the vendor: it must be a finite, non-negative number like the other gains but
# nothing uses it.
KP_MAX = 1000.0  # N*m/rad
KD_MAX = 100.0   # N*m*s/rad
KI_MAX = 1000.0

MOTOR_MODE_DISABLE = 0
MOTOR_MODE_ENABLE = 1
MODE_PR_VALUES = (0, 1)  # 0 serial pitch/roll, 1 parallel A/B

# Dexterous hands: 12 fingers (0-5 left, 6-11 right), 0 closed ... 1000 open.
HAND_DOF = 12
HAND_CLOSED = 0
HAND_OPEN = 1000
