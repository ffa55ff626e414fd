# SPDX-License-Identifier: Apache-2.0
"""
The `mujoco` physics engine: pnd_adam_description's MujocoPhysics behind the model's interface.

The 19-joint Adam U model in MuJoCo (pnd_adam_description's mujoco_model.py and
models/adam_u.xml) with gravity, link masses and inertias, joint friction and limits; the
stand is fixed to the world (`base: fixed`, the robot hangs on its stand) or stands free on
four pads (`base: floating`). The IMU is a sensor site on the pelvis.
"""

from typing import Any, Optional, Sequence

import numpy as np

from .model_config import ModelConfig
from .physics import FloatArray, ImuReading, JointLists


def _block(indices: Sequence[Any]) -> Optional[slice]:
    """Return slice(a, a + n) if indices are a, a+1, ..., a+n-1, else None."""
    first = int(indices[0]) if len(indices) else 0
    if [int(i) for i in indices] != list(range(first, first + len(indices))):
        return None
    return slice(first, first + len(indices))


class MujocoAdapter:
    """
    MujocoPhysics with the SimplePhysics interface, its buffers read through views.

    The joints' qpos/qvel and the actuators' ctrl, bias parameters and forces are views into
    MuJoCo's arrays, made once (the model's joints and actuators are one block each). The
    law's ctrl and bias are written when the law changes (set_law), not every step; after a
    step the joint state is read out once as plain floats (one tolist per array: numpy
    calls, not the arithmetic on 19 values, are what a 500 Hz tick pays for). The same
    arithmetic as MujocoPhysics.step, so the same states bit for bit. Joints that are not
    one block in qpos (never in adam_u.xml) take MujocoPhysics.step.
    """

    name = 'mujoco'

    def __init__(self, cfg: ModelConfig, limits: Sequence[Any], timestep: float) -> None:
        """Load the model (cfg.base, cfg.imu_ypr) with the joints of `limits`."""
        import mujoco
        from pnd_adam_description.mujoco_model import MujocoPhysics
        self._mj_step = mujoco.mj_step
        self.engine: Any = MujocoPhysics(timestep, cfg.base, cfg.imu_ypr, limits)
        e = self.engine
        m, d = e.model, e.data
        self._law: Optional[tuple[FloatArray, ...]] = None
        self._imu: Optional[ImuReading] = None
        blocks = [_block([m.jnt_qposadr[m.joint(j).id] for j in e.joint_names]),
                  _block([m.jnt_dofadr[m.joint(j).id] for j in e.joint_names]),
                  _block([m.actuator(j).id for j in e.joint_names])]
        self._views = None not in blocks
        if self._views:
            qpos, qvel, act = blocks
            self._qpos, self._qvel = d.qpos[qpos], d.qvel[qvel]
            self._ctrl, self._force = d.ctrl[act], d.actuator_force[act]
            self._bias_kp, self._bias_kd = m.actuator_biasprm[act, 1], m.actuator_biasprm[act, 2]
        self._read(self.engine.tau.tolist(), self.engine.ddq.tolist())

    def _read(self, tau: Optional[list[float]] = None,
              ddq: Optional[list[float]] = None) -> None:
        """Read the joint state out of MuJoCo as lists (after a step or at construction)."""
        self._imu = None
        if not self._views:
            e = self.engine
            self._lists: JointLists = (e.q.tolist(), e.dq.tolist(), e.ddq.tolist(),
                                       e.tau.tolist())
            return
        dq_old = self._lists[1] if ddq is None else []
        dq: list[float] = self._qvel.tolist()
        if ddq is None:
            ts = self.engine.timestep
            ddq = [(v - v_old) / ts for v, v_old in zip(dq, dq_old)]
        self._lists = (self._qpos.tolist(), dq, ddq,
                       self._force.tolist() if tau is None else tau)

    def set_law(self, kp: FloatArray, kd: FloatArray, q_des: FloatArray, dq_des: FloatArray,
                ff: FloatArray) -> None:
        """Hold the per-joint law (arrays) until the next call; written to MuJoCo once."""
        self._law = (kp, kd, q_des, dq_des, ff)
        if self._views:
            kp = np.asarray(kp, dtype=float)
            kd = np.asarray(kd, dtype=float)
            self._bias_kp[:] = -kp
            self._bias_kd[:] = -kd
            self._ctrl[:] = ff + kp * q_des + kd * dq_des

    def advance(self, dt: float) -> None:
        """One mj_step of dt with the law of the last set_law."""
        e = self.engine
        if dt != e.timestep:
            e.timestep = dt
            e.model.opt.timestep = dt
        if self._views:
            self._mj_step(e.model, e.data)
        else:
            assert self._law is not None, 'advance() before set_law()'
            e.step(*self._law)
        self._read()

    def step(self, kp: FloatArray, kd: FloatArray, q_des: FloatArray, dq_des: FloatArray,
             ff: FloatArray, dt: float) -> None:
        """set_law then advance (the SimplePhysics signature)."""
        self.set_law(kp, kd, q_des, dq_des, ff)
        self.advance(dt)

    def joint_lists(self) -> JointLists:
        """Return (q, dq, ddq, tau) as lists of floats: do not modify them."""
        return self._lists

    # Snapshots (new arrays), as MujocoPhysics gives them.
    @property
    def q(self) -> FloatArray:
        """Joint positions (rad), a new array."""
        return np.array(self._lists[0])

    @property
    def dq(self) -> FloatArray:
        """Joint velocities (rad/s), a new array."""
        return np.array(self._lists[1])

    @property
    def ddq(self) -> FloatArray:
        """Joint accelerations over the last step (rad/s^2), a new array."""
        return np.array(self._lists[2])

    @property
    def tau(self) -> FloatArray:
        """Return the applied joint torques (N*m), a new array."""
        return np.array(self._lists[3])

    def imu(self) -> ImuReading:
        """(quaternion wxyz, gyroscope, accelerometer, ypr), as MujocoPhysics.imu."""
        if not self._views:
            reading: ImuReading = self.engine.imu()
            return reading
        if self._imu is None:   # once per step (the engine's own cache is not told)
            self._imu = self.engine.read_imu()
        return self._imu
