# SPDX-License-Identifier: Apache-2.0
"""What AdamModel asks of a physics engine (simple_physics, mujoco_physics)."""

from typing import Optional, Protocol

import numpy as np
import numpy.typing as npt

FloatArray = npt.NDArray[np.float64]
# (q, dq, ddq, tau) of every joint, as lists of floats
JointLists = tuple[list[float], list[float], list[float], list[float]]
# (quaternion wxyz, gyroscope, accelerometer, ypr) of the pelvis IMU
ImuReading = tuple[list[float], list[float], list[float], list[float]]


class Physics(Protocol):
    """A physics engine of the 19 joints, stepped with a per-joint PD law."""

    name: str

    @property
    def q(self) -> FloatArray:
        """Joint positions (rad)."""

    @property
    def dq(self) -> FloatArray:
        """Joint velocities (rad/s)."""

    @property
    def ddq(self) -> FloatArray:
        """Joint accelerations over the last step (rad/s^2)."""

    @property
    def tau(self) -> FloatArray:
        """Return the applied joint torques (N*m)."""

    def set_law(self, kp: FloatArray, kd: FloatArray, q_des: FloatArray, dq_des: FloatArray,
                ff: FloatArray) -> None:
        """Hold the per-joint law (arrays) that advance() applies until the next call."""

    def advance(self, dt: float) -> None:
        """One step of dt with the law of the last set_law."""

    def joint_lists(self) -> JointLists:
        """Return (q, dq, ddq, tau) as lists of floats: read only."""

    def imu(self) -> Optional[ImuReading]:
        """Return the IMU reading, or None: the model reports the configured attitude."""
