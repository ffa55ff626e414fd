# SPDX-License-Identifier: Apache-2.0
"""
Simulated HB50 hardware, engine `mujoco`: the MJCF model models/hb50.xml on MuJoCo.

Same interface as physics.HardwareSim (bridge_core and bridge_node do not know which engine
runs). What MuJoCo adds over the simple engine: a floating body that tilts, slips and falls,
foot contacts with friction, an IMU read from MuJoCo sensors on the `imu` site.

Actuators: at every MuJoCo step the 12 actuators give tau = kp(t_pos-q) + kd(t_vel-dq) + t_trq
clamped to the effort limit, the law of drives.drive_torque, evaluated by MuJoCo itself (general
actuators whose gain and bias are set from the command each tick); the implicitfast integrator
treats the -kd*dq term implicitly (stable for any kd, as in the simple engine). Above the
velocity limit a drive gives no torque that would speed the joint up further. A clamped torque
or the velocity limit sets MOTION_ERROR. A brake switches on a joint lock (an equality
constraint carries the load) and the joint holds its position exactly (dq = 0, effort 0).

Time: one call of step(cmd, dt) advances exactly dt in `physics_substeps` MuJoCo steps of
dt/physics_substeps. bridge_node always passes the nominal loop period, so a late tick steps
the nominal period: the simulation never integrates a wall-clock jump. MuJoCo is deterministic
and nothing here draws random numbers: the same commands give the same trajectory.
"""

from typing import Any, Dict, Optional, Tuple

import mujoco
import numpy as np
from robot_model.quaternion import to_rpy, Vector3

from . import description
from .arrays import BoolArray, FloatArray, Imu
from .drives import ActuatorPower, SimConfig, STATUS_MOTION_ERROR, STATUS_TARGET_REACHED
from .kinematics import LegGeometry
from .layout import JOINT_NAMES, LEG_FRONT, LEG_NAMES, LEG_SIDE, NUM_JOINTS, NUM_LEGS
from .validation import ValidCommand

LEGS = tuple(name.lower() for name in LEG_NAMES)
CONTACT_FORCE = 1.0     # N of normal force on a foot that counts as contact
_FREE_Q, _FREE_V = 7, 6  # qpos / qvel entries of the floating base, before the joints
_NONE: BoolArray = np.zeros(NUM_JOINTS, dtype=bool)     # no joint selected (read only)
_NONE.flags.writeable = False


def model_path(configured: str = '') -> str:
    """Return the MJCF file: `configured`, else share/hb50_nodes/models/hb50.xml."""
    return configured or description.model_path()


class MujocoSim(ActuatorPower):
    """The simulated robot on MuJoCo; `step(cmd, dt)` advances it by dt."""

    # The terms of the drive law that depend on the command only (ctrl, brake any, kp > 0,
    # released), set by step() for each new command before they are read.
    _cmd_terms: Tuple[FloatArray, bool, BoolArray, BoolArray]

    def __init__(self, cfg: SimConfig, geo: LegGeometry) -> None:
        self._init_power(cfg)
        self.geo = geo
        if cfg.physics_substeps < 1:
            raise ValueError(f'physics_substeps must be >= 1, not {cfg.physics_substeps}')
        self.path = model_path(cfg.model_file)
        m = self.model = mujoco.MjModel.from_xml_path(self.path)
        names = tuple(m.actuator(i).name for i in range(m.nu))
        if names != JOINT_NAMES:
            raise ValueError(f'{self.path}: actuators {names} are not {JOINT_NAMES}')
        qadr = [int(m.jnt_qposadr[m.joint(n).id]) for n in JOINT_NAMES]
        vadr = [int(m.jnt_dofadr[m.joint(n).id]) for n in JOINT_NAMES]
        if qadr != list(range(_FREE_Q, _FREE_Q + NUM_JOINTS)) or \
                vadr != list(range(_FREE_V, _FREE_V + NUM_JOINTS)):
            raise ValueError(f'{self.path}: expected a free base then the 12 joints in order')
        self._apply_geometry(m, geo)
        self._apply_mass(m, cfg.body_mass)
        m.dof_damping[_FREE_V:] = cfg.joint_friction
        m.actuator_forcerange[:] = (-cfg.effort_limit, cfg.effort_limit)
        self._foot_geoms: Dict[int, int] = {m.geom(f'{leg}_foot').id: i
                                            for i, leg in enumerate(LEGS)}
        self.foot_radius = float(m.geom_size[m.geom('fr_foot').id][0])
        self._trunk = m.body('trunk').id
        self._brakes = np.array([m.equality(f'{n}_brake').id for n in JOINT_NAMES])
        self._braked: BoolArray = np.zeros(NUM_JOINTS, dtype=bool)
        self._lock: FloatArray = np.zeros(NUM_JOINTS)
        self._sensor = {name: slice(int(m.sensor_adr[m.sensor(name).id]),
                                    int(m.sensor_adr[m.sensor(name).id]
                                        + m.sensor_dim[m.sensor(name).id]))
                        for name in ('imu_quat', 'imu_gyro', 'imu_accel')}
        self._force6: FloatArray = np.zeros(6)
        self.data = d = mujoco.MjData(m)
        # Views into MuJoCo's buffers, made once: a tick reads and writes through them instead
        # of slicing the model and data (a new numpy view per access) every period.
        self._qpos_j = d.qpos[_FREE_Q:]
        self._qvel_j = d.qvel[_FREE_V:]
        self._bias_kp = m.actuator_biasprm[:, 1]
        self._bias_kd = m.actuator_biasprm[:, 2]
        self._ctrl = d.ctrl
        self._actuator_force = d.actuator_force
        self._imu_quat, self._imu_gyro, self._imu_accel = (
            d.sensordata[self._sensor[name]]
            for name in ('imu_quat', 'imu_gyro', 'imu_accel'))
        self._any_braked = False
        # The terms of the drive law that depend on the command only, kept while the same
        # ValidCommand object is applied (bridge_core keeps it until a new one is accepted).
        self._cmd: Optional[ValidCommand] = None
        # the command whose gains and ctrl MuJoCo holds, unmodified
        self._applied: Optional[ValidCommand] = None
        self._place_on_ground()
        self._read()

    # --- model set-up ------------------------------------------------------------------------
    @staticmethod
    def _apply_geometry(m: Any, geo: LegGeometry) -> None:
        """Body and foot positions from the node's LegGeometry (the XML holds the defaults)."""
        for leg, front, side in zip(LEGS, LEG_FRONT, LEG_SIDE):
            m.body(f'{leg}_hip').pos[:] = (front * geo.hip_x, side * geo.hip_y, 0.0)
            m.body(f'{leg}_thigh').pos[:] = (0.0, side * geo.l_abad, 0.0)
            m.body(f'{leg}_shank').pos[:] = (0.0, 0.0, -geo.l_thigh)
            m.geom(f'{leg}_foot').pos[:] = (0.0, 0.0, -geo.l_shank)
            m.site(f'{leg}_foot').pos[:] = (0.0, 0.0, -geo.l_shank)

    @staticmethod
    def _apply_mass(m: Any, total: float) -> None:
        """Scale the trunk so that the whole robot weighs `total` kg (legs as in the XML)."""
        trunk = m.body('trunk').id
        legs = float(np.sum(m.body_mass)) - float(m.body_mass[trunk])
        if total <= legs:
            raise ValueError(f'body_mass {total} kg must exceed the legs ({legs:.2f} kg)')
        scale = (total - legs) / m.body_mass[trunk]
        m.body_mass[trunk] *= scale
        m.body_inertia[trunk] *= scale

    def _place_on_ground(self) -> None:
        """Start pose: joints at initial_pose, the lowest point (foot or trunk) on the floor."""
        m, d = self.model, self.data
        d.qpos[:] = 0.0
        d.qpos[3] = 1.0
        d.qpos[_FREE_Q:] = self.q
        mujoco.mj_kinematics(m, d)
        feet = min(d.site(f'{leg}_foot').xpos[2] for leg in LEGS) - self.foot_radius
        trunk = -float(m.geom_size[m.geom('trunk').id][2])
        d.qpos[2] = -min(feet, trunk) + 1e-3
        mujoco.mj_forward(m, d)

    # --- stepping ----------------------------------------------------------------------------
    def step(self, cmd: ValidCommand, dt: float) -> None:
        """Advance by dt (s) under the ValidCommand `cmd`, in physics_substeps MuJoCo steps."""
        cfg, m, d = self.cfg, self.model, self.data
        n = cfg.physics_substeps
        h = dt / n
        if m.opt.timestep != h:
            m.opt.timestep = h
        if cmd is not self._cmd:
            # The law tau = kp(t_pos-q) + kd(t_vel-dq) + t_trq as a MuJoCo general actuator:
            # gain*ctrl + bias1*q + bias2*dq with ctrl = kp*t_pos + kd*t_vel + t_trq,
            # bias1 = -kp, bias2 = -kd; MuJoCo evaluates it every substep and clamps it to
            # the effort limit.
            self._cmd = cmd
            self._cmd_terms = (cmd.kp * cmd.t_pos + cmd.kd * cmd.t_vel + cmd.t_trq,
                               bool(cmd.brake.any()), cmd.kp > 0.0, ~cmd.brake)
        ctrl, brake_any, kp_positive, released = self._cmd_terms
        if self._any_braked or brake_any:
            self._set_brakes(np.asarray(cmd.brake, dtype=bool))
        kp, kd = cmd.kp, cmd.kd
        # A drive over its velocity limit gives no torque that would speed it up further.
        dq = self.dq
        over = np.abs(dq) > cfg.velocity_limit
        if over.any():
            full = ctrl - kp * self.q - kd * dq
            fast = over & (full * dq > 0.0)
        else:
            fast = _NONE     # no drive over its limit (the usual case): nothing to compute
        off = fast | self._braked if self._any_braked else fast
        if off.any():
            kp, kd, ctrl = (np.where(off, 0.0, v) for v in (kp, kd, ctrl))
            applied = None
        else:
            applied = cmd
        if applied is None or applied is not self._applied:
            # MuJoCo's gains and ctrl keep what was written last: rewritten only when the
            # command or the drives switched off changed.
            np.negative(kp, out=self._bias_kp)
            np.negative(kd, out=self._bias_kd)
            self._ctrl[:] = ctrl
            self._applied = applied
        mujoco.mj_step(m, d, n)
        force = self._actuator_force
        if self._any_braked:
            braked = self._braked
            self._qpos_j[braked] = self._lock[braked]
            self._qvel_j[braked] = 0.0
            self._read()
            # The torque the motors gave in the last substep (a drive's current sensor).
            self.tau = np.where(braked, 0.0, force)
        else:
            self._read()
            self.tau = force.copy()
        clipped = fast | (np.abs(force) >= cfg.effort_limit - 1e-9)
        # joint_status(cmd, q, clipped, tolerance), with the command's terms computed once.
        reached = kp_positive & (np.abs(cmd.t_pos - self.q) < cfg.target_tolerance)
        self.status = (np.where(reached, STATUS_TARGET_REACHED, 0)
                       | np.where(clipped & released, STATUS_MOTION_ERROR, 0)).astype(np.uint16)
        self._thermal(dt)
        self._power(dt)
        self.time += dt

    def _set_brakes(self, brake: BoolArray) -> None:
        if np.array_equal(brake, self._braked):
            return
        m, d = self.model, self.data
        newly = brake & ~self._braked
        self._lock[newly] = d.qpos[_FREE_Q:][newly]
        for i in np.flatnonzero(newly):
            m.eq_data[self._brakes[i], 0] = self._lock[i]     # joint1 = polycoef[0]
        d.eq_active[self._brakes] = brake
        self._braked = brake.copy()
        self._any_braked = bool(brake.any())

    def push(self, force: Vector3 = (0.0, 0.0, 0.0),
             torque: Vector3 = (0.0, 0.0, 0.0)) -> None:
        """
        Apply an external force (N) and torque (N*m), world frame, at the trunk's CoM.

        It stays until the next push(); push() with no arguments removes it.
        """
        self.data.xfrc_applied[self._trunk, :3] = force
        self.data.xfrc_applied[self._trunk, 3:] = torque

    # --- measurements ------------------------------------------------------------------------
    # Only q, dq and tau are read every tick (bridge_node publishes them); the ground truth
    # below is computed from MuJoCo's state when asked for.
    def _read(self) -> None:
        self.q = self._qpos_j.copy()
        self.dq = self._qvel_j.copy()

    @property
    def position(self) -> FloatArray:
        """Trunk origin (centre of the hips) in the world frame, m."""
        position: FloatArray = self.data.qpos[:3].copy()
        return position

    @property
    def rpy(self) -> Vector3:
        """Trunk roll, pitch, yaw (rad, ZYX), ground truth."""
        w, x, y, z = self.data.qpos[3:7].tolist()     # MuJoCo's order
        return to_rpy((x, y, z, w))

    @property
    def roll(self) -> float:
        return self.rpy[0]

    @property
    def pitch(self) -> float:
        return self.rpy[1]

    @property
    def yaw(self) -> float:
        return self.rpy[2]

    @property
    def v_world(self) -> FloatArray:
        """Trunk linear velocity in the world frame, m/s."""
        v: FloatArray = self.data.qvel[:3].copy()
        return v

    @property
    def w_world(self) -> FloatArray:
        """Trunk angular velocity in the world frame (the free joint's is local), rad/s."""
        w: FloatArray = self.data.xmat[self._trunk].reshape(3, 3) @ self.data.qvel[3:6]
        return w

    @property
    def body_twist(self) -> Vector3:
        """(vx, vy, wz): velocity in the yaw-aligned frame and yaw rate, as HardwareSim."""
        yaw = self.yaw
        c, s = np.cos(yaw), np.sin(yaw)
        vx, vy, _ = self.data.qvel[:3]
        return (float(c * vx + s * vy), float(-s * vx + c * vy), float(self.w_world[2]))

    @property
    def height(self) -> float:
        """
        Hip plane above the plane of the foot centres (flat floor), m.

        The height control_node commands as stand_height (the floor is foot_radius lower).
        """
        return float(self.data.qpos[2]) - self.foot_radius

    @property
    def foot_force(self) -> FloatArray:
        """Ground reaction force on each foot (4, 3), world frame, N (legs FR, FL, RL, RR)."""
        m, d = self.model, self.data
        force = np.zeros((NUM_LEGS, 3))
        for i in range(d.ncon):
            con = d.contact[i]
            leg = self._foot_geoms.get(int(con.geom2))
            sign = 1.0                      # MuJoCo's contact force acts on geom2
            if leg is None:
                leg = self._foot_geoms.get(int(con.geom1))
                sign = -1.0
                if leg is None:
                    continue
            mujoco.mj_contactForce(m, d, i, self._force6)
            force[leg] += sign * (con.frame.reshape(3, 3).T @ self._force6[:3])
        return force

    @property
    def contact(self) -> BoolArray:
        """Feet pressed on the ground by more than CONTACT_FORCE."""
        return self.foot_force[:, 2] > CONTACT_FORCE

    def imu(self) -> Imu:
        """
        Return (quaternion xyzw, angular velocity, linear acceleration) of the `imu` site.

        Body frame, from MuJoCo's sensors: the accelerometer reads specific force (+1 g up at
        rest).
        """
        w, x, y, z = self._imu_quat.tolist()
        return (x, y, z, w), tuple(self._imu_gyro.tolist()), tuple(self._imu_accel.tolist())
