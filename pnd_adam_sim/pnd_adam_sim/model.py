"""Physics and bookkeeping of the simulated Adam U (pure Python + numpy, no DDS).

Each joint is a rigid inertia with viscous friction on a fixed base (no gravity, no
contacts): enough for a user's controller to see its commands tracked with the dynamics of
a PD loop. An enabled joint (MotorCmd.mode 1) gets the vendor's joint-level law
    tau = tau_ff + kp*(q_des - q) + kd*(dq_des - dq)
(ki is reserved by the vendor and not used), saturated at the joint's torque limit; a
disabled joint (mode 0) gets no torque and coasts to rest on its friction. Positions stop
at the joint limits. The spring-damper part is integrated implicitly (backward Euler), so
any accepted gain (kp up to 1000, kd up to 100) stays stable at any tick rate.

Battery: open-circuit voltage falls linearly with the state of charge, a series
resistance drops it under load; current = power / voltage; the power is the electronics'
idle draw plus the positive mechanical power and the copper loss (k*tau^2) of every
joint; wh_accumulated integrates the power. The IMU sits on the fixed pelvis: level,
at rest, gravity along +z of the sensor.
"""

import math
import time
from dataclasses import dataclass

import numpy as np

from .joints import HAND_DOF, HAND_OPEN, JOINT_LIMITS, MOTOR_MODE_ENABLE
from .validation import validate_handcmd, validate_lowcmd

GRAVITY = 9.80665


@dataclass
class ModelConfig:
    joint_inertia: float = 0.05        # kg*m^2, every joint
    joint_friction: float = 0.5        # N*m*s/rad, viscous
    hand_speed: float = 2000.0         # position units per second (full stroke in 0.5 s)
    battery_capacity_wh: float = 500.0
    battery_initial_soc: float = 0.9   # 0..1
    battery_v_full: float = 54.6       # V at soc 1
    battery_v_empty: float = 42.0      # V at soc 0
    battery_resistance: float = 0.05   # ohm
    battery_idle_power: float = 60.0   # W, computers and drives at rest
    copper_loss: float = 0.02          # W per (N*m)^2
    imu_temperature: int = 35          # degC
    # Static pelvis attitude [yaw, pitch, roll] (rad), e.g. a robot standing on a slope.
    imu_ypr: tuple = (0.0, 0.0, 0.0)
    imu_gyro_bias: tuple = (0.0, 0.0, 0.0)  # rad/s, constant sensor bias
    # Fixed gamepad reading (int16[40]; 0-18 lx, ly, rx, ry, lt, rt, ... ro), e.g. to test
    # a teleop mapping; the default is an untouched gamepad.
    wireless_remote: tuple = (0,) * 40


class AdamModel:
    """State of the simulated robot; commands are validated whole before they touch it."""

    def __init__(self, config=None, limits=JOINT_LIMITS, clock=time.time):
        self.cfg = config or ModelConfig()
        self.limits = limits
        self._clock = clock
        n = len(limits)
        self.q_min = np.array([j.q_min for j in limits])
        self.q_max = np.array([j.q_max for j in limits])
        self.tau_max = np.array([j.tau_max for j in limits])
        self.q = np.zeros(n)
        self.dq = np.zeros(n)
        self.ddq = np.zeros(n)
        self.tau = np.zeros(n)
        self.enabled = np.zeros(n, dtype=bool)
        self.q_des = np.zeros(n)
        self.dq_des = np.zeros(n)
        self.tau_ff = np.zeros(n)
        self.kp = np.zeros(n)
        self.kd = np.zeros(n)
        self.mode_pr = 0
        self.tick = 0
        self.hand = np.full(HAND_DOF, float(HAND_OPEN))
        self.hand_target = np.full(HAND_DOF, float(HAND_OPEN))
        self.wh_accumulated = 0.0
        self.voltage = self.cfg.battery_v_full
        self.current = 0.0
        self.power = 0.0
        self.lowcmd_applied = 0
        self.handcmd_applied = 0

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

    def apply_handcmd(self, cmd):
        """Validate then apply a HandCmd_-like object; raises CommandRejected untouched."""
        validate_handcmd(cmd)
        self.hand_target[:] = list(cmd.position)
        self.handcmd_applied += 1

    # -- dynamics ---------------------------------------------------------------------
    def step(self, dt):
        cfg = self.cfg
        inertia, b = cfg.joint_inertia, cfg.joint_friction
        en = self.enabled
        kp = np.where(en, self.kp, 0.0)
        kd = np.where(en, self.kd, 0.0)
        ff = np.where(en, self.tau_ff, 0.0)
        # Backward Euler of I*ddq = ff + kp*(q_des - q) + kd*(dq_des - dq) - b*dq.
        rhs = inertia * self.dq / dt + ff + kp * (self.q_des - self.q) + kd * self.dq_des
        dq_new = rhs / (inertia / dt + kp * dt + kd + b)
        tau = ff + kp * (self.q_des - (self.q + dt * dq_new)) + kd * (self.dq_des - dq_new)
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

        # Hands move toward their targets at a bounded speed.
        step = cfg.hand_speed * dt
        self.hand += np.clip(self.hand_target - self.hand, -step, step)

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
        mech = float(np.sum(np.maximum(self.tau * self.dq, 0.0)))
        copper = cfg.copper_loss * float(np.sum(self.tau ** 2))
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

    # -- sensors ----------------------------------------------------------------------
    def imu(self):
        """(quaternion wxyz, gyroscope, accelerometer, ypr, temperature) of the pelvis at rest
        with the configured attitude: the accelerometer reads the reaction to gravity,
        R^T * (0, 0, g), with R the ZYX (yaw, pitch, roll) rotation of the quaternion."""
        yaw, pitch, roll = (float(a) for a in self.cfg.imu_ypr)
        cy, sy = math.cos(yaw / 2), math.sin(yaw / 2)
        cp, sp = math.cos(pitch / 2), math.sin(pitch / 2)
        cr, sr = math.cos(roll / 2), math.sin(roll / 2)
        quat = [cr * cp * cy + sr * sp * sy, sr * cp * cy - cr * sp * sy,
                cr * sp * cy + sr * cp * sy, cr * cp * sy - sr * sp * cy]
        acc = [-GRAVITY * math.sin(pitch), GRAVITY * math.cos(pitch) * math.sin(roll),
               GRAVITY * math.cos(pitch) * math.cos(roll)]
        return (quat, [float(g) for g in self.cfg.imu_gyro_bias], acc, [yaw, pitch, roll],
                self.cfg.imu_temperature)

    def wireless_remote(self):
        return [int(v) for v in self.cfg.wireless_remote]

    def timestamp_ms(self):
        return int(self._clock() * 1000.0)
