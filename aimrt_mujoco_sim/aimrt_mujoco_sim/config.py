# SPDX-License-Identifier: Apache-2.0
"""The simulator's settings: SimConfig and its YAML loader."""

from dataclasses import dataclass, field, fields
from typing import Any, Optional

import yaml


@dataclass
class SimConfig:
    """Every setting with its default (config/aimrt_mujoco_sim.yaml documents them)."""

    rate_hz: float = 500.0              # physics: one MuJoCo step of 1/rate_hz per tick
    publish_rate_hz: float = 100.0      # state POSTs per second (each topic)
    base: str = 'floating'              # 'floating': stand on 4 pads; 'fixed': welded
    # JointCommand subscriber (AimRT http channel server). aimrt_bridge POSTs commands to
    # its command_addresses, 127.0.0.1:50081 by default.
    listen_host: str = '127.0.0.1'
    listen_port: int = 50081
    command_topic: str = 'joint_command'
    # State publisher: every ip:port gets every state message (aimrt_bridge: 50080).
    state_addresses: list[str] = field(default_factory=lambda: ['127.0.0.1:50080'])
    joint_state_topic: str = 'joint_state'
    imu_topic: str = 'imu_state'
    touch_topic: str = 'touch_state'
    # AimRT >= 0.10 names: pb:aimrt.protocols.sensor.JointStateArray, ...TouchSensorStateArray
    joint_state_type: str = 'pb:aimrt.protocols.sensor.JointState'
    imu_type: str = 'pb:aimrt.protocols.sensor.ImuState'
    touch_type: str = 'pb:aimrt.protocols.sensor.TouchState'
    serialization: str = 'pb'           # 'pb' or 'json'
    http_timeout_sec: float = 0.5       # connect/read timeout of each state POST
    # No valid JointCommand for this long (s of simulated time; also before the first):
    # every joint in safe damping (stiffness 0, damping damping_kd, effort 0).
    command_timeout: float = 0.5
    damping_kd: float = 1.0
    frame_id: str = 'pelvis'


def load_config(path: Optional[str] = None) -> SimConfig:
    """Return the SimConfig of the defaults and an optional YAML file; ValueError if invalid."""
    data: Any = {}
    if path:
        with open(path, encoding='utf-8') as f:
            data = yaml.safe_load(f) or {}
        if not isinstance(data, dict):
            raise ValueError(f'{path}: expected a mapping')
    known = {f.name for f in fields(SimConfig)}
    unknown = set(data) - known
    if unknown:
        raise ValueError(f'unknown keys: {sorted(unknown)}')
    cfg = SimConfig(**data)
    if not cfg.rate_hz > 0 or not 0 < cfg.publish_rate_hz <= cfg.rate_hz:
        raise ValueError('need rate_hz > 0 and 0 < publish_rate_hz <= rate_hz')
    if cfg.serialization not in ('pb', 'json'):
        raise ValueError("serialization must be 'pb' or 'json'")
    if cfg.base not in ('fixed', 'floating'):
        raise ValueError("base must be 'fixed' or 'floating'")
    if not cfg.command_timeout > 0 or not cfg.damping_kd >= 0 or not cfg.http_timeout_sec > 0:
        raise ValueError('need command_timeout > 0, damping_kd >= 0, http_timeout_sec > 0')
    if not isinstance(cfg.state_addresses, list):
        raise ValueError('state_addresses must be a list of ip:port')
    return cfg
