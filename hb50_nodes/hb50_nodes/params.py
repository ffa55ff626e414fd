# SPDX-License-Identifier: Apache-2.0
"""
ROS parameters of the nodes, generated from the config dataclasses.

Each default is written exactly once (config/hb50.yaml repeats them for users; a test keeps
them equal).
"""

import dataclasses

from .arbitration import Arbiter
from .bridge_core import BridgeConfig
from .control_core import ControlConfig
from .kinematics import LegGeometry
from .physics import SimConfig
from .validation import GainLimits


@dataclasses.dataclass(frozen=True)
class LoopConfig:
    rate: float = 500.0               # Hz of the high-rate loop and topics
    slow_rate: float = 10.0           # Hz of the *_10hz topics
    heartbeat_rate: float = 2.0       # Hz, >= 1 Hz as the vendor requires
    loop_mode: str = 'thread'         # 'thread' (deadline thread) or 'timer' (executor timer)
    busy_wait: float = 0.0001         # s spun before each deadline in 'thread' mode (README)
    rt_priority: int = 0              # > 0: SCHED_FIFO priority of the 'thread' loop (0 = normal)


@dataclasses.dataclass(frozen=True)
class ArbiterConfig:
    primary_source: str = 'control_node'
    custom_min_rate: float = 10.0     # Hz a custom source must keep to hold priority
    takeover_count: int = 3           # consecutive valid commands at that rate to take over
    jitter_margin: float = 0.5        # allowed gap = (1 + margin) / custom_min_rate = 150 ms

    def make(self):
        return Arbiter(self.primary_source, self.custom_min_rate, self.takeover_count,
                       self.jitter_margin)


@dataclasses.dataclass(frozen=True)
class MonitorConfig:
    stale_timeout: float = 1.0        # s without heartbeat -> STALE (+ check period <= 1.5 s)
    check_rate: float = 10.0          # Hz
    heartbeat_rate: float = 2.0
    expected_nodes: tuple = ('bridge_node', 'control_node')


BRIDGE = (LoopConfig, BridgeConfig, SimConfig, LegGeometry, GainLimits, ArbiterConfig)
CONTROL = (LoopConfig, ControlConfig, LegGeometry)
MONITOR = (MonitorConfig,)
NODE_CONFIGS = {'bridge_node': BRIDGE, 'control_node': CONTROL, 'heartbeat_monitor': MONITOR}


def defaults(config_classes):
    """{parameter name: default} of a node; a name shared by two classes means one parameter."""
    out = {}
    for cls in config_classes:
        for f in dataclasses.fields(cls):
            value = f.default
            out[f.name] = list(value) if isinstance(value, tuple) else value
    return out


def declare(node, config_classes):
    """Declare every parameter with its default; return one config instance per class."""
    values = {}
    for name, default in defaults(config_classes).items():
        values[name] = node.declare_parameter(name, default).value
    out = []
    for cls in config_classes:
        kwargs = {}
        for f in dataclasses.fields(cls):
            value = values[f.name]
            if isinstance(f.default, tuple):
                value = tuple(value)
            elif isinstance(f.default, float):
                value = float(value)
            kwargs[f.name] = value
        out.append(cls(**kwargs))
    return out
