# SPDX-License-Identifier: Apache-2.0
"""The model's settings (ModelConfig) and their checks."""

from dataclasses import dataclass
from typing import Sequence

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
    imu_ypr: Sequence[float] = (0.0, 0.0, 0.0)
    imu_gyro_bias: Sequence[float] = (0.0, 0.0, 0.0)  # rad/s, constant sensor bias
    # Fixed gamepad reading (int16[40]; 0-18 lx, ly, rx, ry, lt, rt, ... ro), e.g. to test
    # a teleop mapping; the default is an untouched gamepad.
    wireless_remote: Sequence[int] = (0,) * 40


def check_config(cfg: ModelConfig) -> None:
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
