# SPDX-License-Identifier: Apache-2.0
"""The numpy array types of the HB50 models (annotations only)."""

from typing import Tuple, TypeAlias

import numpy as np
import numpy.typing as npt
from robot_model.quaternion import Quaternion

FloatArray: TypeAlias = npt.NDArray[np.float64]      # joint values, foot positions, vectors
BoolArray: TypeAlias = npt.NDArray[np.bool_]         # flags per joint or per leg
StatusArray: TypeAlias = npt.NDArray[np.uint16]      # joint status words
# What a simulated IMU reads: (quaternion xyzw, angular velocity, linear acceleration).
Imu: TypeAlias = Tuple[Quaternion, Tuple[float, ...], Tuple[float, ...]]
