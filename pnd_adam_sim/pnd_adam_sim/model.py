# SPDX-License-Identifier: Apache-2.0
"""
The simulated Adam U (no DDS): commands, the joint law, hands, battery and sensors.

Two physics engines (ModelConfig.physics_engine), one module each:
- `mujoco` (mujoco_physics.py): the 19-joint Adam U model in MuJoCo with gravity, on its
  stand or standing free; the IMU is a sensor site on the pelvis.
- `simple` (simple_physics.py): independent joints on a fixed base, no gravity; the IMU
  reads the configured static attitude.

Both apply the vendor's joint-level law to an enabled joint (MotorCmd.mode 1)
    tau = tau_ff + kp*(q_des - q) + kd*(dq_des - dq)
(ki is reserved by the vendor and not used), saturated at the joint's torque limit; a
disabled joint (mode 0) gets no torque.

Command timeout (command_timeout > 0, sim_runtime's CommandWatchdog): when no valid LowCmd
arrived for command_timeout seconds of simulated time (and before the first one), every
joint goes to safe damping: kp=0, kd=damping_kd, tau_ff=0, reported as mode 0 (like HB50's
watchdog); the next valid LowCmd takes over at once. command_timeout 0 keeps the last valid
command forever.

The battery is battery.py; the settings model_config.py.
"""

import time
from typing import Any, Callable, Optional, Sequence

import numpy as np
from pnd_adam_description.joints import HAND_DOF, HAND_OPEN, JOINT_LIMITS, MOTOR_MODE_ENABLE
from sim_runtime.watchdog import CommandWatchdog

from . import battery
from .model_config import check_config, ModelConfig, PHYSICS_ENGINES
from .mujoco_physics import MujocoAdapter
from .physics import FloatArray, JointLists, Physics
from .simple_physics import GRAVITY, SimplePhysics, static_imu
from .validation import validate_handcmd, validate_lowcmd

__all__ = ['AdamModel', 'check_config', 'GRAVITY', 'ModelConfig', 'PHYSICS_ENGINES',
           'SimplePhysics']

# (quaternion wxyz, gyroscope, accelerometer, ypr, temperature) of the pelvis IMU
ImuState = tuple[list[float], list[float], list[float], list[float], int]


class AdamModel:
    """State of the simulated robot; commands are validated whole before they touch it."""

    def __init__(self, config: Optional[ModelConfig] = None,
                 limits: Sequence[Any] = JOINT_LIMITS,
                 clock: Callable[[], float] = time.time, timestep: float = 0.002) -> None:
        """Make the robot at rest with `config` (default ModelConfig()); ValueError if bad."""
        self.cfg = config or ModelConfig()
        check_config(self.cfg)
        self.limits = limits
        self._clock = clock
        n = len(limits)
        self.physics: Physics
        if self.cfg.physics_engine == 'mujoco':
            self.physics = MujocoAdapter(self.cfg, limits, timestep)
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
        # No valid LowCmd for command_timeout: safe damping (until the first one, too).
        self.watchdog = CommandWatchdog(self.cfg.command_timeout, self.cfg.damping_kd, n)
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
        self._law_key: Optional[tuple[int, bool]] = None
        self._hand_moving = False      # hand != hand_target: step the hands
        self._modes: tuple[Optional[tuple[int, bool]], list[int]] = (None, [])

    # the command watchdog's state
    @property
    def timed_out(self) -> bool:
        """Whether every joint is in safe damping (no valid LowCmd for the timeout)."""
        return self.watchdog.timed_out

    @property
    def timeouts(self) -> int:
        """Return the number of transitions into safe damping after a command."""
        return self.watchdog.timeouts

    @property
    def last_cmd_time(self) -> Optional[float]:
        """Return sim_time of the last valid LowCmd (None before the first)."""
        return self.watchdog.last_command

    # joint state lives in the physics engine
    @property
    def q(self) -> FloatArray:
        """Joint positions (rad)."""
        return self.physics.q

    @property
    def dq(self) -> FloatArray:
        """Joint velocities (rad/s)."""
        return self.physics.dq

    @property
    def ddq(self) -> FloatArray:
        """Joint accelerations (rad/s^2)."""
        return self.physics.ddq

    @property
    def tau(self) -> FloatArray:
        """Return the applied joint torques (N*m)."""
        return self.physics.tau

    def motor_modes(self) -> list[int]:
        """MotorState.mode per joint: 1 enabled and following commands, 0 otherwise."""
        return list(self.motor_modes_now())

    def motor_modes_now(self) -> list[int]:
        """motor_modes() as a shared list, made again only when the law changes: read only."""
        key = (self.lowcmd_applied, self.timed_out)
        if self._modes[0] != key:
            modes = [0] * len(self.limits) if self.timed_out else [int(e) for e in self.enabled]
            self._modes = (key, modes)
        return self._modes[1]

    def joint_lists(self) -> JointLists:
        """(q, dq, ddq, tau) as lists of floats of the engine's current state: read only."""
        return self.physics.joint_lists()

    # -- commands ---------------------------------------------------------------------
    def apply_lowcmd(self, cmd: Any) -> None:
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
        self.watchdog.feed(self.sim_time)

    def apply_handcmd(self, cmd: Any) -> None:
        """Validate then apply a HandCmd_-like object; raises CommandRejected untouched."""
        validate_handcmd(cmd)
        self.hand_target[:] = list(cmd.position)
        self._hand_moving = True
        self.handcmd_applied += 1

    # -- dynamics ---------------------------------------------------------------------
    def step(self, dt: float) -> None:
        """Advance by dt (the loop's nominal period, never a measured wall-clock gap)."""
        self.sim_time += dt
        timed_out = self.watchdog.check(self.sim_time)
        key = (self.lowcmd_applied, timed_out)
        if key != self._law_key:
            self._law_key = key
            if timed_out:
                self.physics.set_law(*self.watchdog.damping())
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

        _, dq, _, tau = self.physics.joint_lists()
        self.voltage, self.current, self.power, self.wh_accumulated = battery.step(
            self.cfg, self.wh_accumulated, dq, tau, dt)
        self.tick = (self.tick + 1) & 0xFFFFFFFF

    def soc(self) -> float:
        """Return the battery's state of charge (0..1)."""
        return battery.soc(self.cfg, self.wh_accumulated)

    def battery_status(self) -> str:
        """Return BatteryData.status: 'OK', 'LOW' or 'CRITICAL'."""
        return battery.status(self.soc())

    # -- sensors ---------------------------------------------------------------------
    def imu(self) -> ImuState:
        """
        (quaternion wxyz, gyroscope, accelerometer, ypr, temperature) of the pelvis.

        mujoco: read from the IMU site (accelerometer = specific force, +g up at rest),
        plus the configured gyro bias. simple: the pelvis at rest with the configured
        attitude (simple_physics.static_imu).
        """
        bias = [float(g) for g in self.cfg.imu_gyro_bias]
        measured = self.physics.imu()
        if measured is not None:
            quat, gyro, acc, ypr = measured
            return (quat, [g + b for g, b in zip(gyro, bias)], acc, ypr,
                    self.cfg.imu_temperature)
        quat, acc, ypr = static_imu(self.cfg.imu_ypr)
        return (quat, bias, acc, ypr, self.cfg.imu_temperature)

    def wireless_remote(self) -> list[int]:
        """Return the configured gamepad reading (int16[40])."""
        return [int(v) for v in self.cfg.wireless_remote]

    def timestamp_ms(self) -> int:
        """Return the wall-clock time in ms (BatteryData.timestamp_ms)."""
        return int(self._clock() * 1000.0)
