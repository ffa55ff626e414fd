# SPDX-License-Identifier: Apache-2.0
"""
Physics and bookkeeping of the simulated Adam U (no DDS).

Two physics engines (ModelConfig.physics_engine):
- `mujoco`: the 19-joint Adam U model in MuJoCo (pnd_adam_description's mujoco_model.py
  and models/adam_u.xml) with gravity, link masses and inertias, joint friction and
  limits; the stand is fixed to the world (`base: fixed`, the robot hangs on its stand) or
  stands free on four pads (`base: floating`). The IMU is a sensor site on the pelvis.
- `simple`: each joint a rigid inertia with viscous friction on a fixed base, no gravity,
  no coupling, integrated implicitly (backward Euler), so any accepted gain is stable;
  positions stop dead at the joint limits; the IMU reads the configured static attitude.

Both apply the vendor's joint-level law to an enabled joint (MotorCmd.mode 1)
    tau = tau_ff + kp*(q_des - q) + kd*(dq_des - dq)
(ki is reserved by the vendor and not used), saturated at the joint's torque limit; a
disabled joint (mode 0) gets no torque.

Command timeout (command_timeout > 0): when no valid LowCmd arrived for command_timeout
seconds of simulated time (and before the first one), every joint goes to safe damping:
kp=0, kd=damping_kd, tau_ff=0, reported as mode 0 (like HB50's watchdog); the next valid
LowCmd takes over at once. command_timeout 0 keeps the last valid command forever.

Battery: open-circuit voltage falls linearly with the state of charge, a series
resistance drops it under load; current = power / voltage; the power is the electronics'
idle draw plus the positive mechanical power and the copper loss (k*tau^2) of every
joint; wh_accumulated integrates the power.
"""

from dataclasses import dataclass
import math
import time

import numpy as np
from pnd_adam_description.joints import HAND_DOF, HAND_OPEN, JOINT_LIMITS, MOTOR_MODE_ENABLE

from .validation import validate_handcmd, validate_lowcmd

GRAVITY = 9.80665
PHYSICS_ENGINES = ('simple', 'mujoco')


@dataclass
class ModelConfig:
    # 'simple' (no gravity, independent joints) or 'mujoco' (MuJoCo, gravity); the shipped
    # config/adam_sim.yaml selects mujoco.
    physics_engine: str = 'simple'
    base: str = 'fixed'                # mujoco only: 'fixed' (on its stand) or 'floating'
    # s of simulated time without a valid LowCmd -> safe damping; 0 = no timeout.
    command_timeout: float = 0.0
    damping_kd: float = 1.0            # N*m*s/rad of every joint in safe damping
    joint_inertia: float = 0.05        # kg*m^2, every joint (simple engine)
    joint_friction: float = 0.5        # N*m*s/rad, viscous (simple engine)
    hand_speed: float = 2000.0         # position units per second (full stroke in 0.5 s)
    battery_capacity_wh: float = 500.0
    battery_initial_soc: float = 0.9   # 0..1
    battery_v_full: float = 54.6       # V at soc 1
    battery_v_empty: float = 42.0      # V at soc 0
    battery_resistance: float = 0.05   # ohm
    battery_idle_power: float = 60.0   # W, computers and drives at rest
    copper_loss: float = 0.02          # W per (N*m)^2
    imu_temperature: int = 35          # degC
    # Static pelvis attitude [yaw, pitch, roll] (rad), e.g. a robot standing on a slope;
    # with mujoco the attitude of the stand (fixed base) or its start attitude (floating).
    imu_ypr: tuple = (0.0, 0.0, 0.0)
    imu_gyro_bias: tuple = (0.0, 0.0, 0.0)  # rad/s, constant sensor bias
    # Fixed gamepad reading (int16[40]; 0-18 lx, ly, rx, ry, lt, rt, ... ro), e.g. to test
    # a teleop mapping; the default is an untouched gamepad.
    wireless_remote: tuple = (0,) * 40


def check_config(cfg):
    """Raise ValueError for engine/base/timeout settings out of range."""
    if cfg.physics_engine not in PHYSICS_ENGINES:
        raise ValueError(f'physics_engine must be one of {PHYSICS_ENGINES}, '
                         f'got {cfg.physics_engine!r}')
    if cfg.base not in ('fixed', 'floating'):
        raise ValueError(f"base must be 'fixed' or 'floating', got {cfg.base!r}")
    if cfg.base == 'floating' and cfg.physics_engine != 'mujoco':
        raise ValueError('base: floating needs physics_engine: mujoco')
    if not cfg.command_timeout >= 0:
        raise ValueError(f'command_timeout must be >= 0, got {cfg.command_timeout}')
    if not cfg.damping_kd >= 0:
        raise ValueError(f'damping_kd must be >= 0, got {cfg.damping_kd}')


class SimplePhysics:
    """Independent joints: inertia + viscous friction, no gravity, implicit PD."""

    name = 'simple'

    def __init__(self, cfg, limits):
        n = len(limits)
        self.cfg = cfg
        self.q_min = np.array([j.q_min for j in limits])
        self.q_max = np.array([j.q_max for j in limits])
        self.tau_max = np.array([j.tau_max for j in limits])
        self.q = np.zeros(n)
        self.dq = np.zeros(n)
        self.ddq = np.zeros(n)
        self.tau = np.zeros(n)

    def step(self, kp, kd, q_des, dq_des, ff, dt):
        inertia, b = self.cfg.joint_inertia, self.cfg.joint_friction
        # Backward Euler of I*ddq = ff + kp*(q_des - q) + kd*(dq_des - dq) - b*dq.
        rhs = inertia * self.dq / dt + ff + kp * (q_des - self.q) + kd * dq_des
        dq_new = rhs / (inertia / dt + kp * dt + kd + b)
        tau = ff + kp * (q_des - (self.q + dt * dq_new)) + kd * (dq_des - dq_new)
        saturated = np.abs(tau) > self.tau_max
        if saturated.any():
            # A saturated drive delivers a constant torque: integrate that explicitly.
            tau = np.clip(tau, -self.tau_max, self.tau_max)
            dq_sat = (inertia * self.dq / dt + tau) / (inertia / dt + b)
            dq_new = np.where(saturated, dq_sat, dq_new)
        q_new = self.q + dt * dq_new
        # Hard stops: the joint stops dead at its limit.
        hit = (q_new < self.q_min) | (q_new > self.q_max)
        q_new = np.clip(q_new, self.q_min, self.q_max)
        dq_new = np.where(hit, 0.0, dq_new)
        self.ddq = (dq_new - self.dq) / dt
        self.q, self.dq, self.tau = q_new, dq_new, tau

    def set_law(self, kp, kd, q_des, dq_des, ff):
        """Hold the per-joint law (arrays) that advance() applies until the next call."""
        self._law = (kp, kd, q_des, dq_des, ff)

    def advance(self, dt):
        """One step of dt with the law of the last set_law."""
        self.step(*self._law, dt)

    def joint_lists(self):
        """Return (q, dq, ddq, tau) as lists of floats."""
        return self.q.tolist(), self.dq.tolist(), self.ddq.tolist(), self.tau.tolist()

    def imu(self):
        return None  # the model reports the configured static attitude


def _block(indices):
    """Return slice(a, a + n) if indices are a, a+1, ..., a+n-1, else None."""
    first = int(indices[0]) if len(indices) else 0
    if [int(i) for i in indices] != list(range(first, first + len(indices))):
        return None
    return slice(first, first + len(indices))


class _MujocoAdapter:
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

    def __init__(self, cfg, limits, timestep):
        import mujoco
        from pnd_adam_description.mujoco_model import MujocoPhysics
        self._mj_step = mujoco.mj_step
        self.engine = e = MujocoPhysics(timestep, cfg.base, cfg.imu_ypr, limits)
        m, d = e.model, e.data
        self._law = None
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

    def _read(self, tau=None, ddq=None):
        """Read the joint state out of MuJoCo as lists (after a step or at construction)."""
        self._imu = None
        if not self._views:
            e = self.engine
            self._lists = (e.q.tolist(), e.dq.tolist(), e.ddq.tolist(), e.tau.tolist())
            return
        dq_old = self._lists[1] if ddq is None else None
        dq = self._qvel.tolist()
        if ddq is None:
            ts = self.engine.timestep
            ddq = [(v - v_old) / ts for v, v_old in zip(dq, dq_old)]
        self._lists = (self._qpos.tolist(), dq, ddq,
                       self._force.tolist() if tau is None else tau)

    def set_law(self, kp, kd, q_des, dq_des, ff):
        """Hold the per-joint law (arrays) until the next call; written to MuJoCo once."""
        self._law = (kp, kd, q_des, dq_des, ff)
        if self._views:
            kp = np.asarray(kp, dtype=float)
            kd = np.asarray(kd, dtype=float)
            self._bias_kp[:] = -kp
            self._bias_kd[:] = -kd
            self._ctrl[:] = ff + kp * q_des + kd * dq_des

    def advance(self, dt):
        """One mj_step of dt with the law of the last set_law."""
        e = self.engine
        if dt != e.timestep:
            e.timestep = dt
            e.model.opt.timestep = dt
        if self._views:
            self._mj_step(e.model, e.data)
        else:
            e.step(*self._law)
        self._read()

    def step(self, kp, kd, q_des, dq_des, ff, dt):
        """set_law then advance (the SimplePhysics signature)."""
        self.set_law(kp, kd, q_des, dq_des, ff)
        self.advance(dt)

    def joint_lists(self):
        """Return (q, dq, ddq, tau) as lists of floats: do not modify them."""
        return self._lists

    # Snapshots (new arrays), as MujocoPhysics gives them.
    @property
    def q(self):
        return np.array(self._lists[0])

    @property
    def dq(self):
        return np.array(self._lists[1])

    @property
    def ddq(self):
        return np.array(self._lists[2])

    @property
    def tau(self):
        return np.array(self._lists[3])

    def imu(self):
        """(quaternion wxyz, gyroscope, accelerometer, ypr), as MujocoPhysics.imu."""
        if not self._views:
            return self.engine.imu()
        if self._imu is None:   # once per step (the engine's own cache is not told)
            self._imu = self.engine.read_imu()
        return self._imu


class AdamModel:
    """State of the simulated robot; commands are validated whole before they touch it."""

    def __init__(self, config=None, limits=JOINT_LIMITS, clock=time.time, timestep=0.002):
        self.cfg = config or ModelConfig()
        check_config(self.cfg)
        self.limits = limits
        self._clock = clock
        n = len(limits)
        if self.cfg.physics_engine == 'mujoco':
            self.physics = _MujocoAdapter(self.cfg, limits, timestep)
        else:
            self.physics = SimplePhysics(self.cfg, limits)
        self.enabled = np.zeros(n, dtype=bool)
        self.q_des = np.zeros(n)
        self.dq_des = np.zeros(n)
        self.tau_ff = np.zeros(n)
        self.kp = np.zeros(n)
        self.kd = np.zeros(n)
        self.mode_pr = 0
        self.tick = 0
        self.sim_time = 0.0            # s of simulated time (ticks * period)
        self.last_cmd_time = None      # sim_time of the last valid LowCmd
        self.timed_out = self.cfg.command_timeout > 0  # damping until the first command
        self.timeouts = 0              # transitions into safe damping after a command
        self.hand = np.full(HAND_DOF, float(HAND_OPEN))
        self.hand_target = np.full(HAND_DOF, float(HAND_OPEN))
        self.wh_accumulated = 0.0
        self.voltage = self.cfg.battery_v_full
        self.current = 0.0
        self.power = 0.0
        self.lowcmd_applied = 0
        self.handcmd_applied = 0
        # The law in the physics engine is set again only when it changes: a new LowCmd
        # (its count) or a change into or out of safe damping.
        self._law_key = None
        self._hand_moving = False      # hand != hand_target: step the hands
        self._modes = (None, [])       # (law key, motor_modes()) of the last call

    # joint state lives in the physics engine
    @property
    def q(self):
        return self.physics.q

    @property
    def dq(self):
        return self.physics.dq

    @property
    def ddq(self):
        return self.physics.ddq

    @property
    def tau(self):
        return self.physics.tau

    def motor_modes(self):
        """MotorState.mode per joint: 1 enabled and following commands, 0 otherwise."""
        return list(self.motor_modes_now())

    def motor_modes_now(self):
        """motor_modes() as a shared list, made again only when the law changes: read only."""
        key = (self.lowcmd_applied, self.timed_out)
        if self._modes[0] != key:
            modes = [0] * len(self.limits) if self.timed_out else [int(e) for e in self.enabled]
            self._modes = (key, modes)
        return self._modes[1]

    def joint_lists(self):
        """(q, dq, ddq, tau) as lists of floats of the engine's current state: read only."""
        return self.physics.joint_lists()

    # -- commands ---------------------------------------------------------------------
    def apply_lowcmd(self, cmd):
        """Validate then apply a LowCmd_-like object; raises CommandRejected untouched."""
        validate_lowcmd(cmd, self.limits)
        m = cmd.motor_cmd
        self.enabled[:] = [c.mode == MOTOR_MODE_ENABLE for c in m]
        self.q_des[:] = [c.q for c in m]
        self.dq_des[:] = [c.dq for c in m]
        self.tau_ff[:] = [c.tau for c in m]
        self.kp[:] = [c.kp for c in m]
        self.kd[:] = [c.kd for c in m]
        self.mode_pr = int(cmd.mode_pr)
        self.lowcmd_applied += 1
        self.last_cmd_time = self.sim_time
        self.timed_out = False

    def apply_handcmd(self, cmd):
        """Validate then apply a HandCmd_-like object; raises CommandRejected untouched."""
        validate_handcmd(cmd)
        self.hand_target[:] = list(cmd.position)
        self._hand_moving = True
        self.handcmd_applied += 1

    # -- dynamics ---------------------------------------------------------------------
    def _check_timeout(self):
        limit = self.cfg.command_timeout
        if limit > 0 and not self.timed_out and self.last_cmd_time is not None \
                and self.sim_time - self.last_cmd_time > limit + 1e-9:
            self.timed_out = True
            self.timeouts += 1

    def step(self, dt):
        """Advance by dt (the loop's nominal period, never a measured wall-clock gap)."""
        self.sim_time += dt
        self._check_timeout()
        key = (self.lowcmd_applied, self.timed_out)
        if key != self._law_key:
            self._law_key = key
            n = len(self.limits)
            if self.timed_out:
                zeros = np.zeros(n)
                self.physics.set_law(zeros, np.full(n, float(self.cfg.damping_kd)), zeros,
                                     zeros, zeros)
            else:
                en = self.enabled
                self.physics.set_law(np.where(en, self.kp, 0.0), np.where(en, self.kd, 0.0),
                                     self.q_des.copy(), self.dq_des.copy(),
                                     np.where(en, self.tau_ff, 0.0))
        self.physics.advance(dt)

        # Hands move toward their targets at a bounded speed (until they are there).
        if self._hand_moving:
            step = self.cfg.hand_speed * dt
            self.hand += np.clip(self.hand_target - self.hand, -step, step)
            self._hand_moving = not np.array_equal(self.hand, self.hand_target)

        self._step_battery(dt)
        self.tick = (self.tick + 1) & 0xFFFFFFFF

    def soc(self):
        return max(0.0, self.cfg.battery_initial_soc
                   - self.wh_accumulated / self.cfg.battery_capacity_wh)

    def battery_status(self):
        soc = self.soc()
        if soc <= 0.05:
            return 'CRITICAL'
        if soc <= 0.2:
            return 'LOW'
        return 'OK'

    def _step_battery(self, dt):
        cfg = self.cfg
        _, dq, _, tau = self.physics.joint_lists()
        # Positive mechanical power and sum of tau^2, in plain floats (19 values: numpy's
        # per-call cost would exceed the arithmetic). Summed in joint order, where np.sum
        # keeps eight partial sums: a sum can differ from numpy's in its last bit (623 of
        # 3000 ticks of a MuJoCo trace), which the v_oc * v_oc term below absorbs there.
        mech = tau2 = 0.0
        for t, v in zip(tau, dq):
            p = t * v
            if p > 0.0:
                mech += p
            tau2 += t * t
        copper = cfg.copper_loss * tau2
        power = cfg.battery_idle_power + mech + copper
        v_oc = cfg.battery_v_empty + (cfg.battery_v_full - cfg.battery_v_empty) * self.soc()
        r = cfg.battery_resistance
        # Solve P = V*I with V = v_oc - r*I (the physical, smaller root).
        disc = max(v_oc * v_oc - 4.0 * r * power, 0.0)
        current = (v_oc - math.sqrt(disc)) / (2.0 * r)
        self.current = current
        self.voltage = v_oc - r * current
        self.power = self.voltage * self.current
        self.wh_accumulated += self.power * dt / 3600.0

    # -- sensors ---------------------------------------------------------------------
    def imu(self):
        """
        (quaternion wxyz, gyroscope, accelerometer, ypr, temperature) of the pelvis.

        mujoco: read from the IMU site (accelerometer = specific force, +g up at rest),
        plus the configured gyro bias. simple: the pelvis at rest with the configured
        attitude; the accelerometer reads the reaction to gravity, R^T * (0, 0, g), with
        R the ZYX (yaw, pitch, roll) rotation of the quaternion.
        """
        bias = [float(g) for g in self.cfg.imu_gyro_bias]
        measured = self.physics.imu()
        if measured is not None:
            quat, gyro, acc, ypr = measured
            return (quat, [g + b for g, b in zip(gyro, bias)], acc, ypr,
                    self.cfg.imu_temperature)
        yaw, pitch, roll = (float(a) for a in self.cfg.imu_ypr)
        cy, sy = math.cos(yaw / 2), math.sin(yaw / 2)
        cp, sp = math.cos(pitch / 2), math.sin(pitch / 2)
        cr, sr = math.cos(roll / 2), math.sin(roll / 2)
        quat = [cr * cp * cy + sr * sp * sy, sr * cp * cy - cr * sp * sy,
                cr * sp * cy + sr * cp * sy, cr * cp * sy - sr * sp * cy]
        acc = [-GRAVITY * math.sin(pitch), GRAVITY * math.cos(pitch) * math.sin(roll),
               GRAVITY * math.cos(pitch) * math.cos(roll)]
        return (quat, bias, acc, [yaw, pitch, roll], self.cfg.imu_temperature)

    def wireless_remote(self):
        return [int(v) for v in self.cfg.wireless_remote]

    def timestamp_ms(self):
        return int(self._clock() * 1000.0)
