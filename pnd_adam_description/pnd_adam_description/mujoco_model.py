# SPDX-License-Identifier: Apache-2.0
"""
MuJoCo physics of the Adam U (models/adam_u.xml), no DDS and no ROS.

The MJCF holds geometry and mass properties; this module adds what must stay in one place
elsewhere: the joint ranges (from joints.py), one affine actuator per joint carrying the
vendor's joint-level law
    tau = tau_ff + kp*(q_des - q) + kd*(dq_des - dq),  saturated at the joint's tau_max
(ctrl = tau_ff + kp*q_des + kd*dq_des, bias = -kp*q - kd*dq; the integrator `implicitfast`
treats the -kd*dq part implicitly, so any accepted kd is stable), and the base mode:
`fixed` welds the stand to the world (the robot hangs on its stand, the default) with the
attitude `base_ypr`, `floating` gives the stand a free joint and it stands on its four
pads. One mj_step per call with the timestep fixed at construction (the loop period): a
late tick still advances the simulation by exactly one period. Nothing is random.
"""

import os
from typing import Any, Iterable, List, Optional, Sequence, Tuple, Union

import mujoco
from node_runtime.share import share_file
import numpy as np
import numpy.typing as npt
from robot_model.quaternion import from_rpy, to_rpy

from .joints import JOINT_LIMITS, JointLimit

Floats = npt.NDArray[np.float64]
# Where a joint, DoF or actuator block lies in MuJoCo's arrays: a slice, else indices.
Index = Union[slice, npt.NDArray[np.int_]]
# (quaternion wxyz, gyroscope, accelerometer, [yaw, pitch, roll]) of the IMU
Imu = Tuple[List[float], List[float], List[float], List[float]]

BASE_MODES = ('fixed', 'floating')
FOOT_GEOMS = ('foot_front_left', 'foot_front_right', 'foot_rear_left', 'foot_rear_right')


def default_model_path() -> str:
    """Return models/adam_u.xml of the install (share/pnd_adam_description), else the source's."""
    source_root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    path = share_file('pnd_adam_description', source_root, 'models', 'adam_u.xml')
    if not os.path.isfile(path):
        raise FileNotFoundError(f'adam_u.xml not found (install share/ or {path})')
    return os.path.abspath(path)


def build_model(timestep: float, base: str = 'fixed',
                base_ypr: Sequence[float] = (0.0, 0.0, 0.0),
                limits: Iterable[JointLimit] = JOINT_LIMITS, path: Optional[str] = None,
                touch_sensors: bool = False) -> mujoco.MjModel:
    """
    Compile the Adam U MjModel for one loop period and base mode.

    touch_sensors adds a MuJoCo touch sensor per stand pad, named as its geom: the normal
    force (N) of the contacts in a box 5 mm larger than the pad, computed in every mj_step.
    """
    if base not in BASE_MODES:
        raise ValueError(f'base must be one of {BASE_MODES}, got {base!r}')
    if not timestep > 0:
        raise ValueError(f'timestep must be > 0, got {timestep}')
    spec = mujoco.MjSpec.from_file(path or default_model_path())
    spec.option.timestep = float(timestep)
    stand = spec.body('stand')
    yaw, pitch, roll = (float(a) for a in base_ypr)
    x, y, z, w = from_rpy(roll, pitch, yaw)
    stand.quat = [w, x, y, z]       # MuJoCo's order
    if base == 'floating':
        stand.add_freejoint(name='stand_free')
    for lim in limits:
        joint = spec.joint(lim.name)
        if joint is None:
            raise ValueError(f'joint {lim.name} missing from the MJCF')
        joint.range = [lim.q_min, lim.q_max]
        joint.limited = mujoco.mjtLimited.mjLIMITED_TRUE
        act = spec.add_actuator(name=lim.name, target=lim.name,
                                trntype=mujoco.mjtTrn.mjTRN_JOINT)
        act.gaintype = mujoco.mjtGain.mjGAIN_FIXED
        act.biastype = mujoco.mjtBias.mjBIAS_AFFINE
        act.gainprm[0] = 1.0
        act.forcelimited = mujoco.mjtLimited.mjLIMITED_TRUE
        act.forcerange = [-lim.tau_max, lim.tau_max]
    if touch_sensors:
        for name in FOOT_GEOMS:
            pad = spec.geom(name)
            stand.add_site(name=name, type=mujoco.mjtGeom.mjGEOM_BOX, pos=pad.pos,
                           size=[half + 0.005 for half in pad.size])
            spec.add_sensor(name=name, type=mujoco.mjtSensor.mjSENS_TOUCH,
                            objtype=mujoco.mjtObj.mjOBJ_SITE, objname=name)
    return spec.compile()


def _block_or_array(indices: Iterable[Any]) -> Index:
    """Return slice(a, a + n) if indices are a, a+1, ..., a+n-1 (a view), else an array."""
    idx = [int(i) for i in indices]
    if idx and idx == list(range(idx[0], idx[0] + len(idx))):
        return slice(idx[0], idx[0] + len(idx))
    return np.array(idx, dtype=int)


class MujocoPhysics:
    """The 19 joints of Adam U in MuJoCo, driven by the PD + feed-forward law."""

    name = 'mujoco'

    def __init__(self, timestep: float, base: str = 'fixed',
                 base_ypr: Sequence[float] = (0.0, 0.0, 0.0),
                 limits: Sequence[JointLimit] = JOINT_LIMITS, path: Optional[str] = None,
                 touch_sensors: bool = False) -> None:
        self.model = build_model(timestep, base, base_ypr, limits, path, touch_sensors)
        self.data = mujoco.MjData(self.model)
        self.base = base
        self.timestep = float(timestep)
        m = self.model
        self.joint_names = tuple(j.name for j in limits)
        jids = [mujoco.mj_name2id(m, mujoco.mjtObj.mjOBJ_JOINT, n) for n in self.joint_names]
        self._qadr = _block_or_array([m.jnt_qposadr[j] for j in jids])
        self._vadr = _block_or_array([m.jnt_dofadr[j] for j in jids])
        self._act = _block_or_array([mujoco.mj_name2id(m, mujoco.mjtObj.mjOBJ_ACTUATOR, n)
                                     for n in self.joint_names])
        # With the joints and actuators one block each (always in adam_u.xml) these are
        # views into MuJoCo's arrays, made once; else fancy-indexed copies, written back.
        self._bias_kp = m.actuator_biasprm[self._act, 1]
        self._bias_kd = m.actuator_biasprm[self._act, 2]
        self._ctrl = self.data.ctrl[self._act]
        self._views = isinstance(self._act, slice)
        if all(isinstance(a, slice) for a in (self._qadr, self._vadr, self._act)):
            d = self.data
            # Each attribute read of MjData makes a new array: read through these instead.
            self._state_views: Optional[Tuple[Floats, Floats, Floats]] = (
                d.qpos[self._qadr], d.qvel[self._vadr], d.actuator_force[self._act])
        else:
            self._state_views = None
        # The three IMU sensors, read as one block of sensordata (one view, made once).
        spans = [(int(m.sensor_adr[i]), int(m.sensor_dim[i])) for i in
                 (mujoco.mj_name2id(m, mujoco.mjtObj.mjOBJ_SENSOR, n)
                  for n in ('imu_quat', 'imu_gyro', 'imu_acc'))]
        lo = min(a for a, _ in spans)
        self._imu_view = self.data.sensordata[lo:max(a + n for a, n in spans)]
        self._imu_spans = [(a - lo, a - lo + n) for a, n in spans]
        self._feet = [mujoco.mj_name2id(m, mujoco.mjtObj.mjOBJ_GEOM, n) for n in FOOT_GEOMS]
        self._floor = mujoco.mj_name2id(m, mujoco.mjtObj.mjOBJ_GEOM, 'floor')
        self._foot_index = {g: i for i, g in enumerate(self._feet)}
        self._wrench = np.zeros(6)
        # With touch sensors foot_forces() is one read of their sensordata, made in C by
        # mj_step: per-contact calls from Python cost more than the step itself.
        self._touch_view: Optional[Floats] = None
        if touch_sensors:
            adr = [int(m.sensor_adr[mujoco.mj_name2id(m, mujoco.mjtObj.mjOBJ_SENSOR, n)])
                   for n in FOOT_GEOMS]
            assert adr == list(range(adr[0], adr[0] + len(adr))), adr
            self._touch_view = self.data.sensordata[adr[0]:adr[0] + len(adr)]
        mujoco.mj_forward(m, self.data)
        self._dq_before = np.zeros(len(self.joint_names))
        self._refresh()

    def _refresh(self) -> None:
        """Cache the joint state and the IMU reading of the current data (once per step)."""
        self._q: Optional[Floats] = self.data.qpos[self._qadr].copy()
        self._dq: Optional[Floats] = self.data.qvel[self._vadr].copy()
        self._tau: Optional[Floats] = self.data.actuator_force[self._act].copy()
        self._ddq: Optional[Floats] = None
        self._dq_step: Optional[Floats] = None
        self._imu: Optional[Imu] = None

    # The joint state after the last step, copied out of MuJoCo when first read: a loop
    # that reads it every k-th step does not pay for copies on the steps between.
    @property
    def q(self) -> Floats:
        """Joint positions (rad) in joint_names order (a new array after each step)."""
        if self._q is None:
            views = self._state_views
            assert views is not None    # advance() clears the state only with views
            self._q = views[0].copy()
        return self._q

    @property
    def dq(self) -> Floats:
        """Joint velocities (rad/s)."""
        if self._dq is None:
            views = self._state_views
            assert views is not None    # advance() clears the state only with views
            self._dq = views[1].copy()
        return self._dq

    @property
    def tau(self) -> Floats:
        """Actuator torques (N*m) of the last step, after saturation."""
        if self._tau is None:
            views = self._state_views
            assert views is not None    # advance() clears the state only with views
            self._tau = views[2].copy()
        return self._tau

    @property
    def ddq(self) -> Floats:
        """Joint accelerations (rad/s^2): the change of dq over the last step."""
        if self._ddq is None:
            before = self._dq_step
            self._ddq = (np.zeros_like(self.dq) if before is None
                         else (self.dq - before) / self.timestep)
        return self._ddq

    def set_joint_positions(self, q: npt.ArrayLike) -> None:
        """Place the joints (at rest) without stepping, e.g. for an initial pose."""
        self.data.qpos[self._qadr] = q
        self.data.qvel[:] = 0.0
        mujoco.mj_forward(self.model, self.data)
        self._refresh()

    def set_law(self, kp: npt.ArrayLike, kd: npt.ArrayLike, q_des: Any, dq_des: Any,
                tau_ff: Any) -> None:
        """Hold the per-joint gains and targets (arrays of 19) for the steps that follow."""
        m, d = self.model, self.data
        kp = np.asarray(kp, dtype=float)
        kd = np.asarray(kd, dtype=float)
        ctrl = tau_ff + kp * q_des + kd * dq_des
        if self._views:
            np.negative(kp, out=self._bias_kp)
            np.negative(kd, out=self._bias_kd)
            self._ctrl[:] = ctrl
        else:
            m.actuator_biasprm[self._act, 1] = -kp
            m.actuator_biasprm[self._act, 2] = -kd
            d.ctrl[self._act] = ctrl

    def advance(self) -> None:
        """One timestep with the law of the last set_law (zero gains before the first)."""
        m, d = self.model, self.data
        if self._state_views is None:
            dq_before = self.dq
            mujoco.mj_step(m, d)
            self._refresh()
        else:
            # dq before the step, kept for ddq (one copy into a buffer made once).
            np.copyto(self._dq_before, self._state_views[1])
            mujoco.mj_step(m, d)
            self._q = self._dq = self._tau = self._ddq = self._imu = None
            dq_before = self._dq_before
        self._dq_step = dq_before

    def step(self, kp: npt.ArrayLike, kd: npt.ArrayLike, q_des: Any, dq_des: Any,
             tau_ff: Any) -> None:
        """One timestep with the given per-joint gains and targets (arrays of 19)."""
        self.set_law(kp, kd, q_des, dq_des, tau_ff)
        self.advance()

    def imu(self) -> Imu:
        """(quaternion wxyz, gyroscope, accelerometer, ypr) of the IMU site on the pelvis."""
        if self._imu is None:
            self._imu = self.read_imu()
        return self._imu

    def read_imu(self) -> Imu:
        """imu() read out of MuJoCo's sensordata now (uncached: for a caller that steps)."""
        block = self._imu_view.tolist()
        quat, gyro, acc = (block[a:b] for a, b in self._imu_spans)
        w, x, y, z = quat               # MuJoCo's order
        roll, pitch, yaw = to_rpy((x, y, z, w))
        return quat, gyro, acc, [yaw, pitch, roll]

    def foot_forces(self) -> List[float]:
        """Return the normal force (N) of the floor on each stand pad, in FOOT_GEOMS order."""
        if self._touch_view is not None:
            touch: List[float] = self._touch_view.tolist()
            return touch
        forces = [0.0] * len(self._feet)
        wrench = self._wrench
        floor, feet = self._floor, self._foot_index
        contact_force, m, d = mujoco.mj_contactForce, self.model, self.data
        # The geom pairs as one array (per-contact struct wrappers cost more than the force).
        for i, (g1, g2) in enumerate(d.contact.geom[:d.ncon].tolist()):
            if g1 == floor:
                foot = feet.get(g2)
            elif g2 == floor:
                foot = feet.get(g1)
            else:
                continue
            if foot is not None:
                contact_force(m, d, i, wrench)
                forces[foot] += abs(float(wrench[0]))
        return forces

    def base_height(self) -> float:
        """Return the height (m) of the pelvis above the floor."""
        bid = mujoco.mj_name2id(self.model, mujoco.mjtObj.mjOBJ_BODY, 'pelvis')
        return float(self.data.xpos[bid][2])
