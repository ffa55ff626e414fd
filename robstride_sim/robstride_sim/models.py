# SPDX-License-Identifier: Apache-2.0
"""
RobStride motor models: the protocol limits of each model and the simulation constants.

The first four numbers (velocity, torque, kp, kd) are the spec's model limits (INTERFACES.md
section 2): they are also the ranges the 16-bit fields of the motion-control and feedback
frames are scaled over. The remaining numbers are simulation choices, not vendor data:
peak current (sets the torque constant used by current and velocity modes), the reflected
inertia and viscous damping of the simulated shaft.
"""
from dataclasses import dataclass
import math

# Position fields of the motion and feedback frames span +-4*pi rad (all models).
P_MAX = 4.0 * math.pi


@dataclass(frozen=True)
class MotorModel:
    name: str
    v_max: float      # rad/s, velocity field range
    t_max: float      # N*m, torque field range
    kp_max: float     # motion-mode kp range (N*m/rad)
    kd_max: float     # motion-mode kd range (N*m*s/rad)
    i_max: float      # A, simulated peak phase current
    inertia: float    # kg*m^2, simulated shaft plus load
    damping: float    # N*m*s/rad, simulated viscous friction

    @property
    def kt(self) -> float:
        """Torque constant (N*m/A) so that i_max gives t_max."""
        return self.t_max / self.i_max


MODELS = {
    m.name: m for m in (
        MotorModel('RS00', 33.0, 14.0, 500.0, 5.0, 16.0, 0.01, 0.02),
        MotorModel('RS01', 44.0, 17.0, 500.0, 5.0, 23.0, 0.01, 0.02),
        MotorModel('RS02', 44.0, 17.0, 500.0, 5.0, 23.0, 0.01, 0.02),
        MotorModel('RS03', 20.0, 60.0, 5000.0, 100.0, 43.0, 0.05, 0.05),
        MotorModel('RS04', 15.0, 120.0, 5000.0, 100.0, 90.0, 0.10, 0.08),
        MotorModel('RS05', 33.0, 17.0, 500.0, 5.0, 11.0, 0.01, 0.02),
        MotorModel('RS06', 50.0, 36.0, 5000.0, 100.0, 57.0, 0.05, 0.05),
    )
}


def get_model(name: str) -> MotorModel:
    """Look a model up by name (case-insensitive); ValueError names the known ones."""
    try:
        return MODELS[str(name).strip().upper()]
    except KeyError:
        raise ValueError(
            f'unknown RobStride model {name!r}; known: {", ".join(sorted(MODELS))}') from None
