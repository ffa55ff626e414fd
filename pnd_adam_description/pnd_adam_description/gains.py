# SPDX-License-Identifier: Apache-2.0
"""
PD gains for Adam U's joints: the vendor's documented values where they exist.

Source: `joint_pd_config.json` of the vendor's MuJoCo package pndbotics/pnd_adam_u_mujoco
(install/pndrobotros2/bin/robot_interface/config/), "Kp"/"Kd" per joint. It lists the waist
and both arms of Adam U (and legs, grippers of other Adam variants); it has no neck entries.
Units: kp N*m/rad, kd N*m*s/rad, for the law tau = tau_ff + kp*(q_des - q) + kd*(dq_des - dq).

The vendor's arm gains (9-18) are soft: a PD joint at rest under gravity sags by load/kp, so
without gravity feed-forward an arm pose sags by tenths of a radian. The waist gains matter
most: the upper body is an inverted pendulum (~23 kg, COM ~0.22 m above waistPitch), whose
gravity stiffness (~50 N*m/rad) a kp of 60 barely exceeds (issue 16).
"""

from typing import Iterable, List, Tuple

from .joints import JOINT_NAMES

VENDOR_SOURCE = ('pndbotics/pnd_adam_u_mujoco: install/pndrobotros2/bin/robot_interface/'
                 'config/joint_pd_config.json')

# name -> (kp, kd), the vendor's values; joints the vendor file does not list are absent.
VENDOR_GAINS = {
    'waistRoll': (405.0, 6.1),
    'waistPitch': (405.0, 6.1),
    'waistYaw': (205.0, 4.1),
    **{f'{joint}_{side}': gains for side in ('Left', 'Right') for joint, gains in (
        ('shoulderPitch', (18.0, 0.9)),
        ('shoulderRoll', (9.0, 0.9)),
        ('shoulderYaw', (9.0, 0.9)),
        ('elbow', (9.0, 0.9)),
        ('wristYaw', (9.0, 0.9)),
        ('wristPitch', (9.0, 0.9)),
        ('wristRoll', (9.0, 0.9)),
    )},
}
assert set(VENDOR_GAINS) <= set(JOINT_NAMES)


def vendor_gains(names: Iterable[str]) -> Tuple[List[float], List[float]]:
    """Return ([kp], [kd]) of the vendor for `names`; KeyError for a joint it documents none."""
    return [VENDOR_GAINS[n][0] for n in names], [VENDOR_GAINS[n][1] for n in names]
