# SPDX-License-Identifier: Apache-2.0
"""control_node's logic without ROS: mode machine, joint targets and state estimation."""

from dataclasses import dataclass
import math
from typing import List, Optional, Sequence, Tuple, TypeAlias

import numpy as np
import numpy.typing as npt
from robot_model.quaternion import Quaternion, to_rpy, Vector3

from . import kinematics, levels
from .arrays import BoolArray, FloatArray
from .drives import GRAVITY
from .gait import InvalidVelocityCommand, scale_velocity, smoothstep, Trot, VelocityCommand
from .kinematics import LegGeometry, Planted
from .layout import NUM_JOINTS, NUM_LEGS
from .levels import Event
from .validation import GainLimits

# bridge_node's default t_pos envelope, per joint in the vendor order (every leg alike).
_POSITION_MIN = np.tile(GainLimits.position_min, NUM_LEGS)
_POSITION_MAX = np.tile(GainLimits.position_max, NUM_LEGS)
# The value of an array attribute before its first computation (never read as a result).
_UNSET: FloatArray = np.zeros(0)
_UNSET.flags.writeable = False

# RobotState enums (values as in hb50_commons/msg/RobotState.msg).
MODE_IDLE, MODE_STAND_UP, MODE_STAND, MODE_LOCOMOTION, MODE_DAMPING = 0, 1, 2, 3, 4
TYPE_STATIC, TYPE_DYNAMIC = 0, 1
GAIT_IDLE, GAIT_STAND, GAIT_WALK, GAIT_RUN = 0, 1, 2, 3


@dataclass(frozen=True)
class ControlConfig:
    stand_height: float = 0.28        # m, hip height when standing
    height_range: float = 0.04        # m per unit of normalised linear.z
    stand_up_time: float = 2.0        # s
    kp: float = 60.0                  # N*m/rad
    kd: float = 2.0                   # N*m*s/rad
    body_mass: float = 15.0           # kg, for the gravity feed-forward
    cmd_vel_lin: float = 0.5          # m/s per unit of normalised linear x/y
    cmd_vel_ang: float = 1.0          # rad/s per unit of normalised angular z; tilt rate limit
    tilt_range: float = 0.3           # rad of body roll/pitch per unit of angular x/y
    velocity_timeout: float = 0.5     # s; an older velocity command counts as zero
    accel_limit: float = 1.0          # m/s^2 (and rad/s^2) ramp on the commanded twist
    gait_period: float = 0.4          # s per trot cycle
    step_height: float = 0.05         # m
    run_fraction: float = 0.6         # |v| above this fraction of cmd_vel_lin is labelled RUN
    replan_threshold: float = 0.35    # rad tracking error that restarts a smooth stand-up
    contact_force: float = 20.0       # N of estimated vertical force that means contact
    velocity_filter: float = 0.02     # per-tick low-pass factor of the body velocity estimate


class Estimate:
    """
    State estimate published as RobotState.

    Kept in plain floats (per leg: tuples of three): the 500 Hz tick computes and packs them
    without a numpy call per field. The array properties are for readers outside the tick.
    """

    def __init__(self) -> None:
        self.feet_rows: Sequence[Vector3] = ((0.0, 0.0, 0.0),) * NUM_LEGS        # m, body frame
        self.foot_vel_rows: Sequence[Vector3] = ((0.0, 0.0, 0.0),) * NUM_LEGS    # m/s, body
        self.force_rows: Sequence[Tuple[float, ...]] = ((0.0, 0.0, 0.0),) * NUM_LEGS  # N, GRF
        self.contact_flags: Sequence[bool] = (False,) * NUM_LEGS
        self.position_xyz = [0.0, 0.0, 0.0]                   # m, odom frame
        self.quat: Quaternion = (0.0, 0.0, 0.0, 1.0)
        self.rpy: Vector3 = (0.0, 0.0, 0.0)        # rad, from the IMU orientation
        self.body_lin_xyz = [0.0, 0.0, 0.0]                   # m/s, body frame
        self.body_ang: Vector3 = (0.0, 0.0, 0.0)   # rad/s, the IMU's angular velocity
        self.world_lin_xyz: Vector3 = (0.0, 0.0, 0.0)         # m/s, yaw-aligned frame

    @property
    def feet(self) -> FloatArray:
        return np.array(self.feet_rows)

    @property
    def foot_vel(self) -> FloatArray:
        return np.array(self.foot_vel_rows)

    @property
    def force(self) -> FloatArray:
        return np.array(self.force_rows)

    @property
    def contact(self) -> BoolArray:
        return np.array(self.contact_flags, dtype=bool)

    @property
    def position(self) -> FloatArray:
        return np.array(self.position_xyz)

    @property
    def body_lin(self) -> FloatArray:
        return np.array(self.body_lin_xyz)

    @property
    def world_lin(self) -> FloatArray:
        return np.array(self.world_lin_xyz)


@dataclass
class JointTargets:
    kp: FloatArray
    kd: FloatArray
    t_pos: FloatArray
    t_vel: FloatArray
    t_trq: FloatArray


# (joint targets, target velocities, feed-forward torques) of one tick
Targets: TypeAlias = Tuple[FloatArray, FloatArray, FloatArray]
# What the standing targets depend on: (height, dt, geometry, config)
StandKey: TypeAlias = Tuple[float, float, LegGeometry, ControlConfig]


def rotation_rp(roll: float, pitch: float) -> FloatArray:
    """Rotation matrix Ry(pitch) @ Rx(roll): body frame -> yaw-aligned level frame."""
    roll, pitch = float(roll), float(pitch)
    cr, sr, cp, sp = math.cos(roll), math.sin(roll), math.cos(pitch), math.sin(pitch)
    return np.array([[cp, sp * sr, sp * cr], [0.0, cr, -sr], [-sp, cp * sr, cp * cr]])


class ControlCore:

    def __init__(self, cfg: ControlConfig, geo: LegGeometry) -> None:
        self.cfg = cfg
        self.geo = geo
        self.mode = MODE_IDLE
        self.gait = GAIT_IDLE
        self.trot = Trot(cfg.gait_period, cfg.step_height)
        self.est = Estimate()
        self.q: Optional[FloatArray] = None     # latest measured joint positions (12,)
        self.dq: FloatArray = np.zeros(NUM_JOINTS)
        self.tau: FloatArray = np.zeros(NUM_JOINTS)
        self.target: Optional[FloatArray] = None    # last commanded joint positions (12,)
        self.cmd = VelocityCommand()
        self.cmd_time: Optional[float] = None
        self.twist = [0.0, 0.0, 0.0]     # ramped (vx, vy, wz) actually walked
        self.height = cfg.stand_height
        self.tilt = [0.0, 0.0]   # ramped (roll, pitch) set-point actually commanded, rad
        self._q: List[float] = []    # self.q as plain floats (taken by _estimate each tick)
        self._stand_from = _UNSET    # the joints the stand-up starts from
        self._stand_t = 0.0
        self._still_time = 0.0
        self._stand_pose: Optional[FloatArray] = None
        # The standing robot's targets (no walking, no tilt) depend on the height only: kept
        # for the last height, they are not recomputed every tick (inverse kinematics and the
        # gravity feed-forward's Jacobian).
        self._standing: Tuple[Optional[StandKey], Targets] = (None, (_UNSET, _UNSET, _UNSET))
        # ((kp, kd), (kp array, kd array)) of the last tick
        self._gains: Tuple[Optional[Tuple[float, float]], Tuple[FloatArray, FloatArray]] = (
            None, (_UNSET, _UNSET))

    # --- inputs ---------------------------------------------------------------------------
    def on_bridge_data(self, q: npt.ArrayLike, dq: npt.ArrayLike, tau: npt.ArrayLike,
                       quat: Sequence[float], gyro: Sequence[float]) -> None:
        self.q = np.asarray(q, dtype=float)
        self.dq = np.asarray(dq, dtype=float)
        self.tau = np.asarray(tau, dtype=float)
        x, y, z, w = quat
        self.est.quat = (float(x), float(y), float(z), float(w))
        x, y, z = gyro
        self.est.body_ang = (float(x), float(y), float(z))

    def on_velocity_command(self, linear: Sequence[float], angular: Sequence[float],
                            now: float) -> List[Event]:
        """Take a velocity command; return an event when it is ignored."""
        try:
            self.cmd = scale_velocity(linear, angular, self.cfg.cmd_vel_lin,
                                      self.cfg.cmd_vel_ang, self.cfg.tilt_range)
        except InvalidVelocityCommand as exc:
            return [(levels.WARN, f'velocity command ignored: {exc}')]
        self.cmd_time = now
        return []

    # --- helpers --------------------------------------------------------------------------
    def nominal_feet(self, height: float) -> FloatArray:
        hips = self.geo.hips
        out = hips.copy()
        out[:, 1] += np.sign(hips[:, 1]) * self.geo.l_abad
        out[:, 2] = -height
        return out

    def stand_pose(self) -> FloatArray:
        return kinematics.inverse(self.geo, self.nominal_feet(self.cfg.stand_height)).reshape(-1)

    def _gravity_ff(self, q: FloatArray, stance: BoolArray, scale: float = 1.0,
                    rot: Optional[FloatArray] = None) -> FloatArray:
        """
        Feed-forward torques that carry the body weight on the stance feet.

        `rot` (rotation_rp of the body tilt) turns the vertical ground force into the body frame.
        """
        n = int(np.count_nonzero(stance))
        if n == 0:
            return np.zeros(NUM_JOINTS)
        force = np.zeros((NUM_LEGS, 3))
        up = (0.0, 0.0, 1.0) if rot is None else rot[2]
        force[stance] = np.multiply.outer(np.ones(n), up) * (
            scale * self.cfg.body_mass * GRAVITY / n)
        jac = kinematics.jacobian(self.geo, q.reshape(NUM_LEGS, 3))
        return -kinematics.joint_torque_from_force(jac, force).reshape(-1)

    def _start_stand_up(self) -> None:
        self.mode = MODE_STAND_UP
        # From where the joints are, but inside bridge_node's default t_pos envelope: a joint
        # pushed past it (a fall, another source's command) would otherwise make the first
        # targets of the ramp commands that bridge_node refuses, and the robot would stay
        # in safe damping instead of standing up.
        # step() runs this only once self.q is set
        self._stand_from = np.clip(self.q, _POSITION_MIN, _POSITION_MAX)  # type: ignore[arg-type]
        self._stand_t = 0.0
        self.trot.reset()
        self.twist = [0.0, 0.0, 0.0]
        self.tilt = [0.0, 0.0]

    # --- 500 Hz step ----------------------------------------------------------------------
    def step(self, now: float, dt: float) -> Tuple[Optional[JointTargets], List[Event]]:
        """Run one tick; return (JointTargets or None, events)."""
        events: List[Event] = []
        if self.q is None:
            return None, events
        self._estimate(dt)
        if self.mode == MODE_IDLE:
            self._start_stand_up()
            events.append((levels.OK, 'standing up'))
        elif self.target is not None and self.mode != MODE_STAND_UP and max(
                abs(a - b) for a, b in zip(self._q, self.target.tolist())) > \
                self.cfg.replan_threshold:
            # Someone else moved the joints (custom source, damping): stand up from here.
            self._start_stand_up()
            events.append((levels.WARN, 'joints far from target: standing up again'))
        cmd = self.cmd
        if self.cmd_time is None or now - self.cmd_time > self.cfg.velocity_timeout:
            cmd = VelocityCommand()
        height = self.cfg.stand_height + cmd.height * self.cfg.height_range
        # np.clip of one value, in plain floats (numpy's scalar calls cost more than this).
        self.height += min(max(height - self.height, -0.05 * dt), 0.05 * dt)
        if self.mode == MODE_STAND_UP:
            target, t_vel, ff = self._stand_up(dt)
        else:
            target, t_vel, ff = self._walk(cmd, dt, events)
        self.target = target
        gains = (self.cfg.kp, self.cfg.kd)
        if self._gains[0] != gains:
            self._gains = (gains, (np.full(NUM_JOINTS, gains[0]), np.full(NUM_JOINTS, gains[1])))
        kp, kd = self._gains[1]
        return JointTargets(kp, kd, target, t_vel, ff), events

    def _stand_up(self, dt: float) -> Targets:
        self._stand_t += dt
        duration = self.cfg.stand_up_time
        if self._stand_pose is None:     # constant: inverse kinematics once, not every tick
            self._stand_pose = self.stand_pose()
        stand = self._stand_pose
        s = self._stand_t / duration
        a, a_next = smoothstep(s), smoothstep(s + dt / duration)
        target = self._stand_from + a * (stand - self._stand_from)
        t_vel = (a_next - a) / dt * (stand - self._stand_from)
        ff = self._gravity_ff(target, np.ones(NUM_LEGS, dtype=bool), a)
        if s >= 1.0:
            self.mode = MODE_STAND
            self.gait = GAIT_STAND
            self.height = self.cfg.stand_height
        else:
            self.gait = GAIT_STAND
        return target, t_vel, ff

    def _walk(self, cmd: VelocityCommand, dt: float, events: List[Event]) -> Targets:
        cfg = self.cfg
        # Ramps (np.clip of the step) in plain floats: three and two values per tick.
        lim = cfg.accel_limit * dt
        self.twist = twist = [t + min(max(w - t, -lim), lim)
                              for w, t in zip((cmd.vx, cmd.vy, cmd.yaw_rate), self.twist)]
        moving = cmd.moving or max(abs(t) for t in twist) > 1e-3
        if self.mode == MODE_STAND and moving:
            self.mode = MODE_LOCOMOTION
            self.trot.reset()
            self._still_time = 0.0
            events.append((levels.OK, 'locomotion: trotting'))
        # Body tilt: ramp towards the commanded roll/pitch at cmd_vel_ang (rad/s), then express
        # the level-frame foot targets in the tilted body frame (feet stay on the ground).
        step = cfg.cmd_vel_ang * dt
        self.tilt = tilt = [t + min(max(w - t, -step), step)
                            for w, t in zip((cmd.roll, cmd.pitch), self.tilt)]
        rot = rotation_rp(*tilt) if tilt[0] or tilt[1] else None
        if self.mode == MODE_LOCOMOTION:
            nominal = self.nominal_feet(self.height)
            feet = self.trot.feet(nominal, *self.twist)
            stance = self.trot.stance()
            touchdown = self.trot.advance(dt)
            feet_next = self.trot.feet(nominal, *self.twist)
            self._still_time = 0.0 if moving else self._still_time + dt
            fast = math.hypot(twist[0], twist[1]) > cfg.run_fraction * cfg.cmd_vel_lin
            self.gait = GAIT_RUN if fast else GAIT_WALK
            if touchdown and self._still_time >= cfg.gait_period:
                # Stop at a touchdown: with zero twist every foot is back on its nominal spot.
                self.mode = MODE_STAND
                self.gait = GAIT_STAND
                events.append((levels.OK, 'standing'))
        else:
            self.gait = GAIT_STAND
            if rot is None:
                return self._stand_targets(dt)
            feet = feet_next = nominal = self.nominal_feet(self.height)
            stance = np.ones(NUM_LEGS, dtype=bool)
        if rot is not None:
            # Row-vector form of R^T p: level frame -> body frame.
            feet = feet @ rot
            feet_next = feet if feet_next is nominal else feet_next @ rot
        target = kinematics.inverse(self.geo, feet).reshape(-1)
        target_next = (target if feet_next is feet
                       else kinematics.inverse(self.geo, feet_next).reshape(-1))
        return target, (target_next - target) / dt, self._gravity_ff(target, stance, rot=rot)

    def _stand_targets(self, dt: float) -> Targets:
        """(target, t_vel, ff) of the level standing robot at self.height (kept per height)."""
        key, targets = self._standing
        if key != (self.height, dt, self.geo, self.cfg):
            target = kinematics.inverse(self.geo, self.nominal_feet(self.height)).reshape(-1)
            targets = (target, np.zeros(NUM_JOINTS),
                       self._gravity_ff(target, np.ones(NUM_LEGS, dtype=bool)))
            self._standing = ((self.height, dt, self.geo, self.cfg), targets)
        return targets

    def _estimate(self, dt: float) -> None:
        """
        Feet, their velocities and forces, contacts, body velocity and height from the joints.

        The legs through kinematics.leg_states (plain floats: at 500 Hz numpy's per-call
        overhead on 3x3 blocks costs several times the arithmetic; test_control_core checks
        it agrees with the numpy functions of kinematics).
        """
        cfg, est = self.cfg, self.est
        self._q = q = self.q.tolist()  # type: ignore[union-attr]  # step(): only once q is set
        feet: List[Vector3]
        vel: List[Vector3]
        force: List[Tuple[float, ...]]
        contact: List[bool]
        planted: List[Planted]
        feet, vel, force, contact, planted = [], [], [], [], []
        threshold = cfg.contact_force
        for p, v, f in kinematics.leg_states(self.geo, q, self.dq.tolist(), self.tau.tolist()):
            touching = f[2] > threshold
            feet.append(p)
            vel.append(v)
            force.append(f)
            contact.append(touching)
            if touching:
                planted.append((p[0], p[1], v[0], v[1]))
        est.feet_rows, est.foot_vel_rows, est.force_rows = feet, vel, force
        est.contact_flags = contact
        vx, vy, _ = kinematics.planar_twist(planted)
        alpha = cfg.velocity_filter
        body = est.body_lin_xyz
        body[0] += alpha * (vx - body[0])
        body[1] += alpha * (vy - body[1])
        # The IMU's roll and pitch level the feet and the body velocity.
        roll, pitch, yaw = est.rpy = to_rpy(est.quat)
        cr, sr, cp, sp = math.cos(roll), math.sin(roll), math.cos(pitch), math.sin(pitch)
        bx, by, bz = body
        # rotation_rp(roll, pitch) @ body_lin, written out.
        lx = cp * bx + sp * sr * by + sp * cr * bz
        ly = cr * by - sr * bz
        lz = -sp * bx + cp * sr * by + cp * cr * bz
        c, s = math.cos(yaw), math.sin(yaw)
        wx, wy = c * lx - s * ly, s * lx + c * ly
        est.world_lin_xyz = (wx, wy, lz)
        pos = est.position_xyz
        pos[0] += wx * dt
        pos[1] += wy * dt
        if planted:
            # Height: the lowest levelled planted foot (the z row of the rotation).
            pos[2] = max(sp * px - cp * sr * py - cp * cr * pz
                         for (px, py, pz), touching in zip(feet, contact) if touching)

    @property
    def motion_type(self) -> int:
        return TYPE_DYNAMIC if self.mode == MODE_LOCOMOTION else TYPE_STATIC
