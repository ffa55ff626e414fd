# SPDX-License-Identifier: Apache-2.0
"""control_node's logic without ROS: mode machine, joint targets and state estimation."""

from dataclasses import dataclass, field
import math

import numpy as np

from . import kinematics, levels
from .drives import GRAVITY
from .gait import InvalidVelocityCommand, scale_velocity, smoothstep, Trot, VelocityCommand
from .layout import NUM_JOINTS, NUM_LEGS

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


@dataclass
class Estimate:
    """State estimate published as RobotState."""

    feet: np.ndarray = field(default_factory=lambda: np.zeros((NUM_LEGS, 3)))
    foot_vel: np.ndarray = field(default_factory=lambda: np.zeros((NUM_LEGS, 3)))
    force: np.ndarray = field(default_factory=lambda: np.zeros((NUM_LEGS, 3)))
    contact: np.ndarray = field(default_factory=lambda: np.zeros(NUM_LEGS, dtype=bool))
    position: np.ndarray = field(default_factory=lambda: np.zeros(3))
    quat: tuple = (0.0, 0.0, 0.0, 1.0)
    rpy: tuple = (0.0, 0.0, 0.0)      # rad, from the IMU orientation
    body_lin: np.ndarray = field(default_factory=lambda: np.zeros(3))
    body_ang: np.ndarray = field(default_factory=lambda: np.zeros(3))
    world_lin: np.ndarray = field(default_factory=lambda: np.zeros(3))


@dataclass
class JointTargets:
    kp: np.ndarray
    kd: np.ndarray
    t_pos: np.ndarray
    t_vel: np.ndarray
    t_trq: np.ndarray


def quat_to_rpy(x, y, z, w):
    """Roll, pitch, yaw (rad, ZYX convention) of a unit quaternion given as x, y, z, w."""
    roll = math.atan2(2.0 * (w * x + y * z), 1.0 - 2.0 * (x * x + y * y))
    pitch = math.asin(min(1.0, max(-1.0, 2.0 * (w * y - z * x))))
    yaw = math.atan2(2.0 * (w * z + x * y), 1.0 - 2.0 * (y * y + z * z))
    return float(roll), float(pitch), float(yaw)


def rotation_rp(roll, pitch):
    """Rotation matrix Ry(pitch) @ Rx(roll): body frame -> yaw-aligned level frame."""
    roll, pitch = float(roll), float(pitch)
    cr, sr, cp, sp = math.cos(roll), math.sin(roll), math.cos(pitch), math.sin(pitch)
    return np.array([[cp, sp * sr, sp * cr], [0.0, cr, -sr], [-sp, cp * sr, cp * cr]])


class ControlCore:

    def __init__(self, cfg, geo):
        self.cfg = cfg
        self.geo = geo
        self.mode = MODE_IDLE
        self.gait = GAIT_IDLE
        self.trot = Trot(cfg.gait_period, cfg.step_height)
        self.est = Estimate()
        self.q = None                # latest measured joint positions (12,)
        self.dq = np.zeros(NUM_JOINTS)
        self.tau = np.zeros(NUM_JOINTS)
        self.target = None           # last commanded joint positions (12,)
        self.cmd = VelocityCommand()
        self.cmd_time = None
        self.twist = np.zeros(3)     # ramped (vx, vy, wz) actually walked
        self.height = cfg.stand_height
        self.tilt = np.zeros(2)      # ramped (roll, pitch) set-point actually commanded, rad
        self._stand_from = None
        self._stand_t = 0.0
        self._still_time = 0.0
        self._stand_pose = None
        # The standing robot's targets (no walking, no tilt) depend on the height only: kept
        # for the last height, they are not recomputed every tick (inverse kinematics and the
        # gravity feed-forward's Jacobian).
        self._standing = (None, None)
        self._gains = (None, None)   # ((kp, kd), (kp array, kd array)) of the last tick

    # --- inputs ---------------------------------------------------------------------------
    def on_bridge_data(self, q, dq, tau, quat, gyro):
        self.q = np.asarray(q, dtype=float)
        self.dq = np.asarray(dq, dtype=float)
        self.tau = np.asarray(tau, dtype=float)
        self.est.quat = tuple(float(v) for v in quat)
        self.est.body_ang = np.asarray(gyro, dtype=float)

    def on_velocity_command(self, linear, angular, now):
        """Take a velocity command; return an event when it is ignored."""
        try:
            self.cmd = scale_velocity(linear, angular, self.cfg.cmd_vel_lin,
                                      self.cfg.cmd_vel_ang, self.cfg.tilt_range)
        except InvalidVelocityCommand as exc:
            return [(levels.WARN, f'velocity command ignored: {exc}')]
        self.cmd_time = now
        return []

    # --- helpers --------------------------------------------------------------------------
    def nominal_feet(self, height):
        hips = self.geo.hips
        out = hips.copy()
        out[:, 1] += np.sign(hips[:, 1]) * self.geo.l_abad
        out[:, 2] = -height
        return out

    def stand_pose(self):
        return kinematics.inverse(self.geo, self.nominal_feet(self.cfg.stand_height)).reshape(-1)

    def _gravity_ff(self, q, stance, scale=1.0, rot=None):
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

    def _start_stand_up(self):
        self.mode = MODE_STAND_UP
        self._stand_from = self.q.copy()
        self._stand_t = 0.0
        self.trot.reset()
        self.twist[:] = 0.0
        self.tilt[:] = 0.0

    # --- 500 Hz step ----------------------------------------------------------------------
    def step(self, now, dt):
        """Run one tick; return (JointTargets or None, events)."""
        events = []
        if self.q is None:
            return None, events
        self._estimate(dt)
        if self.mode == MODE_IDLE:
            self._start_stand_up()
            events.append((levels.OK, 'standing up'))
        elif self.target is not None and np.max(np.abs(self.q - self.target)) > \
                self.cfg.replan_threshold and self.mode != MODE_STAND_UP:
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

    def _stand_up(self, dt):
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

    def _walk(self, cmd, dt, events):
        cfg = self.cfg
        want = np.array([cmd.vx, cmd.vy, cmd.yaw_rate])
        self.twist += np.clip(want - self.twist, -cfg.accel_limit * dt, cfg.accel_limit * dt)
        moving = cmd.moving or np.max(np.abs(self.twist)) > 1e-3
        if self.mode == MODE_STAND and moving:
            self.mode = MODE_LOCOMOTION
            self.trot.reset()
            self._still_time = 0.0
            events.append((levels.OK, 'locomotion: trotting'))
        # Body tilt: ramp towards the commanded roll/pitch at cmd_vel_ang (rad/s), then express
        # the level-frame foot targets in the tilted body frame (feet stay on the ground).
        step = cfg.cmd_vel_ang * dt
        self.tilt += np.clip(np.array([cmd.roll, cmd.pitch]) - self.tilt, -step, step)
        rot = rotation_rp(*self.tilt) if self.tilt.any() else None
        if self.mode == MODE_LOCOMOTION:
            nominal = self.nominal_feet(self.height)
            feet = self.trot.feet(nominal, *self.twist)
            stance = self.trot.stance()
            touchdown = self.trot.advance(dt)
            feet_next = self.trot.feet(nominal, *self.twist)
            self._still_time = 0.0 if moving else self._still_time + dt
            fast = np.hypot(self.twist[0], self.twist[1]) > cfg.run_fraction * cfg.cmd_vel_lin
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

    def _stand_targets(self, dt):
        """(target, t_vel, ff) of the level standing robot at self.height (kept per height)."""
        key, targets = self._standing
        if key != (self.height, dt, self.geo, self.cfg):
            target = kinematics.inverse(self.geo, self.nominal_feet(self.height)).reshape(-1)
            targets = (target, np.zeros(NUM_JOINTS),
                       self._gravity_ff(target, np.ones(NUM_LEGS, dtype=bool)))
            self._standing = ((self.height, dt, self.geo, self.cfg), targets)
        return targets

    def _estimate(self, dt):
        cfg, est = self.cfg, self.est
        q = self.q.reshape(NUM_LEGS, 3)
        est.feet, jac = kinematics.forward_and_jacobian(self.geo, q)
        est.foot_vel = kinematics.foot_velocity(jac, self.dq.reshape(NUM_LEGS, 3))
        est.force = kinematics.foot_force_from_torque(jac, self.tau.reshape(NUM_LEGS, 3))
        est.contact = est.force[:, 2] > cfg.contact_force
        vx, vy, wz = kinematics.body_twist_from_feet(est.feet, est.foot_vel, est.contact)
        alpha = cfg.velocity_filter
        est.body_lin[0] += alpha * (vx - est.body_lin[0])
        est.body_lin[1] += alpha * (vy - est.body_lin[1])
        # The IMU's roll and pitch level the feet and the body velocity.
        roll, pitch, yaw = est.rpy = quat_to_rpy(*est.quat)
        rot = rotation_rp(roll, pitch)
        level = rot @ est.body_lin
        c, s = math.cos(yaw), math.sin(yaw)
        est.world_lin = np.array([c * level[0] - s * level[1], s * level[0] + c * level[1],
                                  level[2]])
        est.position[:2] += est.world_lin[:2] * dt
        if est.contact.any():
            feet_level = est.feet[est.contact] @ rot.T
            est.position[2] = float(np.max(-feet_level[:, 2]))

    @property
    def motion_type(self):
        return TYPE_DYNAMIC if self.mode == MODE_LOCOMOTION else TYPE_STATIC
