# SPDX-License-Identifier: Apache-2.0
"""
ROS parameters of the HB50 nodes: one node_runtime.parameters table per node.

The defaults are the config dataclasses' (each written exactly once; config/hb50.yaml repeats
them for users and a test keeps them equal). DOCS gives every field its descriptor: a
description with the unit, the range or choices, and whether it can change at run time.
Start-up parameters are read-only (`ros2 param set` is refused); the run-time ones take
effect when set (each node's on_change `apply`), after range checks and the cross checks of
`refusal` (e.g. position_min <= position_max).
"""

import dataclasses
import math
from typing import (Any, Callable, Dict, Iterable, List, Mapping, NamedTuple, Optional, Tuple,
                    Type, TYPE_CHECKING, TypeAlias, TypeVar)

from node_runtime import parameters

from .arbitration import Arbiter
from .bridge_core import BridgeConfig
from .control_core import ControlConfig
from .drives import SimConfig
from .kinematics import LegGeometry
from .layout import JOINT_NAMES
from .physics import ENGINES
from .validation import GainLimits

if TYPE_CHECKING:
    from _typeshed import DataclassInstance

# The config dataclasses of one node, in the order declare() returns their instances.
ConfigClasses: TypeAlias = Iterable[Type['DataclassInstance']]
Config = TypeVar('Config', bound='DataclassInstance')


@dataclasses.dataclass(frozen=True)
class LoopConfig:
    rate: float = 500.0               # Hz of the high-rate loop and topics
    slow_rate: float = 10.0           # Hz of the *_10hz topics
    heartbeat_rate: float = 2.0       # Hz, >= 1 Hz as the vendor requires
    loop_mode: str = 'loop'           # 'loop' (drives the executor), 'thread' or 'timer'
    busy_wait: float = 0.0            # s spun before each deadline in 'loop'/'thread' mode
    rt_priority: int = 0              # > 0: SCHED_FIFO priority of the loop (0 = normal)


@dataclasses.dataclass(frozen=True)
class ArbiterConfig:
    primary_source: str = 'control_node'
    custom_min_rate: float = 10.0     # Hz a custom source must keep to hold priority
    takeover_count: int = 3           # consecutive valid commands at that rate to take over
    jitter_margin: float = 0.5        # allowed gap = (1 + margin) / custom_min_rate = 150 ms

    def make(self) -> Arbiter:
        return Arbiter(self.primary_source, self.custom_min_rate, self.takeover_count,
                       self.jitter_margin)

    def configure(self, arbiter: Arbiter) -> None:
        """Give a running Arbiter this rate rule (its state and priority are kept)."""
        arbiter.min_rate = self.custom_min_rate
        arbiter.takeover_count = self.takeover_count
        arbiter.jitter_margin = self.jitter_margin


@dataclasses.dataclass(frozen=True)
class MonitorConfig:
    stale_timeout: float = 1.0        # s without heartbeat -> STALE (+ check period <= 1.5 s)
    check_rate: float = 10.0          # Hz
    heartbeat_rate: float = 2.0
    expected_nodes: Tuple[str, ...] = ('bridge_node', 'control_node')


@dataclasses.dataclass(frozen=True)
class ViewConfig:
    refresh_rate: float = 2.0         # Hz of the screen
    duration: float = 0.0             # s; 0 = until stopped
    command_rate: float = 10.0        # Hz of the keys' velocity_command


class Doc(NamedTuple):
    """The descriptor of one parameter (its default is the dataclass field's)."""

    description: str
    value_range: Optional[Tuple[Any, Any]] = None
    run_time: bool = False            # True: `ros2 param set` takes effect; else read-only
    choices: Optional[Tuple[Any, ...]] = None
    constraints: str = ''


_POS = 2.0 * math.pi                  # rad, bound of any joint position limit

DOCS = {
    # LoopConfig (bridge_node, control_node)
    'rate': Doc('rate of the control loop and of its 500 Hz topics [Hz]', (1.0, 2000.0)),
    'slow_rate': Doc('rate of the *_10hz topics: the sample due each round(rate / slow_rate) '
                     'periods [Hz]',
                     (0.1, 1000.0)),
    'heartbeat_rate': Doc('rate of the level-OK Status on heartbeat (the vendor requires '
                          '>= 1 Hz) [Hz]', (1.0, 100.0)),
    'loop_mode': Doc('loop: the main thread runs the loop and serves the executor between '
                     'deadlines (one thread); thread: the loop runs on its own deadline '
                     'thread; timer: on an executor timer', choices=('loop', 'thread', 'timer')),
    'busy_wait': Doc('time spun before each deadline in loop and thread mode [s]',
                     (0.0, 0.01)),
    'rt_priority': Doc('SCHED_FIFO priority of the loop (loop, thread mode); 0: normal '
                       'scheduling '
                       '(needs CAP_SYS_NICE or an RTPRIO rlimit, else a warning)', (0, 99)),
    # BridgeConfig
    'command_timeout': Doc('without a valid joint command for this long the drives go to '
                           'safe damping [s]', (0.001, 10.0), run_time=True),
    'damping_kd': Doc('velocity gain of the safe damping command [N*m*s/rad]', (0.0, 100.0),
                      run_time=True),
    'reject_report_period': Doc('one rejection reason is reported again at most this often '
                                '[s]', (0.0, 3600.0), run_time=True),
    'joint_names': Doc('actuator names in the vendor order; a joint command must list exactly '
                       'these'),
    # SimConfig
    'joint_inertia': Doc('reflected inertia of each simulated joint [kg*m^2]', (1e-6, 10.0)),
    'joint_friction': Doc('viscous friction of each simulated joint [N*m*s/rad]', (0.0, 10.0)),
    'effort_limit': Doc('actuator torque limit: simulated actuators clip to it, commands with '
                        'a larger |t_trq| are rejected [N*m]', (0.0, 1000.0)),
    'velocity_limit': Doc('actuator velocity limit: simulated actuators clip to it, commands '
                          'with a larger |t_vel| are rejected [rad/s]', (0.0, 1000.0)),
    'target_tolerance': Doc('|t_pos - q| under which a joint reports target reached [rad]',
                            (0.0, 1.0)),
    'body_mass': Doc('body mass (bridge_node: of the simulated robot; control_node: of its '
                     'gravity feed-forward) [kg]', (0.1, 1000.0)),
    'rest_height': Doc('hip height of the simulated body lying on the ground [m]', (0.0, 1.0)),
    'contact_tolerance': Doc('foot height under which a simulated foot touches the ground '
                             '[m]', (0.0, 0.1)),
    'ambient_temperature': Doc('ambient temperature of the simulated actuators [degC]',
                               (-50.0, 100.0)),
    'heat_per_nm2': Doc('actuator heating per squared torque [degC/s/(N*m)^2]', (0.0, 10.0)),
    'cooling_time': Doc('time constant of the actuators cooling to ambient [s]',
                        (0.1, 1e6)),
    'idle_power': Doc('power drawn by the simulated robot at rest [W]', (0.0, 10000.0)),
    'copper_loss': Doc('power per squared torque per joint [W/(N*m)^2]', (0.0, 100.0)),
    'battery_capacity_wh': Doc('simulated battery capacity [Wh]', (1.0, 1e6)),
    'battery_full_v': Doc('battery voltage when full [V]', (1.0, 1000.0)),
    'battery_empty_v': Doc('battery voltage when empty [V]', (0.0, 1000.0)),
    'battery_resistance': Doc('battery internal resistance [ohm]', (0.0, 10.0)),
    'initial_battery': Doc('battery charge at start [%]', (0.0, 100.0)),
    'initial_pose': Doc('start position of the joints of each leg (abduction, hip, knee) '
                        '[rad]', (-_POS, _POS), constraints='3 entries, the same on every leg'),
    'physics_engine': Doc('simple: the built-in model; mujoco: the MJCF model on MuJoCo',
                          choices=ENGINES),
    'physics_substeps': Doc('MuJoCo steps per loop period [1]', (1, 100)),
    'model_file': Doc("MJCF model file; '' = share/hb50_nodes/models/hb50.xml"),
    # LegGeometry (bridge_node, control_node)
    'hip_x': Doc('hip joint distance from the body centre along x [m]', (0.0, 2.0)),
    'hip_y': Doc('hip joint distance from the body centre along y [m]', (0.0, 2.0)),
    'l_abad': Doc('abduction offset, hip flexion axis to leg plane along y [m]', (0.0, 1.0)),
    'l_thigh': Doc('thigh length [m]', (0.01, 2.0)),
    'l_shank': Doc('shank length [m]', (0.01, 2.0)),
    # GainLimits (bridge_node)
    'kp_max': Doc('largest kp a joint command may carry [N*m/rad]', (0.0, 10000.0),
                  run_time=True),
    'kd_max': Doc('largest kd a joint command may carry [N*m*s/rad]', (0.0, 1000.0),
                  run_time=True),
    'ki_max': Doc('largest ki a joint command may carry (reserved by the vendor: 0) '
                  '[N*m/(rad*s)]', (0.0, 10000.0), run_time=True),
    'position_min': Doc('lowest t_pos of each joint of a leg (abduction, hip, knee) [rad]',
                        (-_POS, _POS), run_time=True,
                        constraints='3 entries (every leg) or 12 (each joint); <= position_max'),
    'position_max': Doc('highest t_pos of each joint of a leg (abduction, hip, knee) [rad]',
                        (-_POS, _POS), run_time=True,
                        constraints='3 entries (every leg) or 12 (each joint); >= position_min'),
    # ArbiterConfig (bridge_node)
    'primary_source': Doc('source_node of the primary command source'),
    'custom_min_rate': Doc('rate a custom command source must keep to take and hold priority '
                           '[Hz]', (0.1, 1000.0), run_time=True),
    'takeover_count': Doc('consecutive valid commands at that rate for a custom source to '
                          'take over [1]', (1, 1000), run_time=True),
    'jitter_margin': Doc("allowed gap between a custom source's commands: (1 + margin) / "
                         'custom_min_rate [1]', (0.0, 10.0), run_time=True),
    # ControlConfig (control_node)
    'stand_height': Doc('hip height when standing [m]', (0.05, 1.0)),
    'height_range': Doc('body height change per unit of normalised linear.z [m]', (0.0, 0.2),
                        run_time=True),
    'stand_up_time': Doc('duration of the stand-up [s]', (0.1, 60.0)),
    'kp': Doc('stiffness of the joint commands [N*m/rad]', (0.0, 10000.0)),
    'kd': Doc('damping of the joint commands [N*m*s/rad]', (0.0, 1000.0)),
    'cmd_vel_lin': Doc('speed per unit of normalised linear x/y: the largest commanded speed '
                       '[m/s]', (0.0, 5.0), run_time=True),
    'cmd_vel_ang': Doc('yaw rate per unit of normalised angular.z, and tilt rate limit '
                       '[rad/s]', (0.0, 10.0), run_time=True),
    'tilt_range': Doc('body roll/pitch per unit of normalised angular x/y [rad]', (0.0, 1.0),
                      run_time=True),
    'velocity_timeout': Doc('a velocity command older than this counts as zero [s]',
                            (0.01, 60.0), run_time=True),
    'accel_limit': Doc('ramp limit of the commanded twist [m/s^2 and rad/s^2]', (0.01, 100.0),
                       run_time=True),
    'gait_period': Doc('duration of one trot cycle [s]', (0.05, 10.0)),
    'step_height': Doc('foot lift during a step [m]', (0.0, 0.5)),
    'run_fraction': Doc('a speed above this fraction of cmd_vel_lin is labelled RUN [1]',
                        (0.0, 1.0), run_time=True),
    'replan_threshold': Doc('joint tracking error that restarts a smooth stand-up [rad]',
                            (0.0, 10.0)),
    'contact_force': Doc('estimated vertical foot force that means contact [N]',
                         (0.0, 10000.0)),
    'velocity_filter': Doc('per-tick low-pass factor of the body velocity estimate [1]',
                           (0.0, 1.0)),
    # MonitorConfig (heartbeat_monitor)
    'stale_timeout': Doc('a node without a heartbeat for this long is reported STALE [s]',
                         (0.01, 3600.0), run_time=True),
    'check_rate': Doc('rate of the staleness check [Hz]', (0.1, 1000.0)),
    'expected_nodes': Doc('nodes reported STALE even if never heard (names, no namespace)'),
    # ViewConfig (live_view)
    'refresh_rate': Doc('screen refresh rate [Hz]', (0.1, 100.0)),
    'duration': Doc('exit after this long; 0: run until stopped [s]', (0.0, None)),
    'command_rate': Doc("rate of the keys' velocity_command [Hz]", (0.1, 1000.0)),
}

BRIDGE = (LoopConfig, BridgeConfig, SimConfig, LegGeometry, GainLimits, ArbiterConfig)
CONTROL = (LoopConfig, ControlConfig, LegGeometry)
MONITOR = (MonitorConfig,)
VIEW = (ViewConfig,)
# The nodes of config/hb50.yaml (live_view has no section there).
NODE_CONFIGS: Dict[str, Tuple[Type['DataclassInstance'], ...]] = {
    'bridge_node': BRIDGE, 'control_node': CONTROL, 'heartbeat_monitor': MONITOR}


def defaults(config_classes: ConfigClasses) -> Dict[str, Any]:
    """{parameter name: default} of a node; a name shared by two classes means one parameter."""
    out: Dict[str, Any] = {}
    for cls in config_classes:
        for f in dataclasses.fields(cls):
            value = f.default
            out[f.name] = list(value) if isinstance(value, tuple) else value
    return out


def table(config_classes: ConfigClasses) -> Tuple[parameters.Parameter, ...]:
    """Return the node_runtime Parameter entries of a node, one per name, in field order."""
    out: List[parameters.Parameter] = []
    for name, default in defaults(config_classes).items():
        doc = DOCS[name]
        out.append(parameters.Parameter(
            name, default, doc.description, read_only=not doc.run_time,
            value_range=doc.value_range, choices=doc.choices, constraints=doc.constraints))
    return tuple(out)


def run_time(config_classes: ConfigClasses) -> Tuple[parameters.Parameter, ...]:
    """Return the entries of a node's table that can change while it runs."""
    return tuple(p for p in table(config_classes) if not p.read_only)


def build(cls: Type[Config], values: Mapping[str, Any],
          base: Optional[Config] = None) -> Config:
    """
    Return a `cls` instance with the values of `values` ({name: value}) for its fields.

    Fields not in `values` keep `base`'s values (or the defaults); lists become tuples.
    """
    kwargs: Dict[str, Any] = {}
    for f in dataclasses.fields(cls):
        if f.name in values:
            value = values[f.name]
            kwargs[f.name] = tuple(value) if isinstance(f.default, tuple) else value
    return dataclasses.replace(base if base is not None else cls(), **kwargs)


def refusal(values: Mapping[str, Any]) -> Optional[str]:
    """
    Return why a set of values breaks a rule between parameters, or None.

    `values`: {name: value} as the node would hold it after the set (only the names the
    rules need).
    """
    if 'initial_pose' in values and len(values['initial_pose']) != 3:
        return f"parameter 'initial_pose': {len(values['initial_pose'])} entries, expected 3"
    low, high = values.get('position_min'), values.get('position_max')
    for name, limits in (('position_min', low), ('position_max', high)):
        if limits is not None and len(limits) not in (3, len(JOINT_NAMES)):
            return (f'parameter {name!r}: {len(limits)} entries, expected 3 (every leg) or '
                    f'{len(JOINT_NAMES)} (each joint)')
    if low is not None and high is not None:
        n = max(len(low), len(high))
        for i in range(n):
            lo, hi = low[i % len(low)], high[i % len(high)]
            if lo > hi:
                return (f'position_min[{i % len(low)}]={lo:g} is above '
                        f'position_max[{i % len(high)}]={hi:g}')
    return None


def declare(node: Any, config_classes: ConfigClasses) -> List[Any]:
    """
    Declare a node's parameters with their descriptors; return one config per class.

    A start-up value out of range, not among the choices or breaking `refusal` raises a
    one-line ValueError (the executables exit 2 with it).
    """
    values = parameters.declare(node, table(config_classes))
    reason = refusal(values)
    if reason:
        raise ValueError(reason)
    return [build(cls, values) for cls in config_classes]


class BridgeParams(NamedTuple):
    """bridge_node's configuration: one instance per class of BRIDGE, in its order."""

    loop: LoopConfig
    bridge: BridgeConfig
    sim: SimConfig
    geo: LegGeometry
    limits: GainLimits
    arbiter: ArbiterConfig


class ControlParams(NamedTuple):
    """control_node's configuration: one instance per class of CONTROL, in its order."""

    loop: LoopConfig
    control: ControlConfig
    geo: LegGeometry


def declare_bridge(node: Any) -> BridgeParams:
    """Declare bridge_node's parameters (declare(node, BRIDGE)); return its configuration."""
    return BridgeParams(*declare(node, BRIDGE))


def declare_control(node: Any) -> ControlParams:
    """Declare control_node's parameters (declare(node, CONTROL)); return its configuration."""
    return ControlParams(*declare(node, CONTROL))


def declare_monitor(node: Any) -> MonitorConfig:
    """Declare heartbeat_monitor's parameters (declare(node, MONITOR)); return its config."""
    monitor: MonitorConfig
    (monitor,) = declare(node, MONITOR)
    return monitor


def declare_view(node: Any) -> ViewConfig:
    """Declare live_view's parameters (declare(node, VIEW)); return its config."""
    view: ViewConfig
    (view,) = declare(node, VIEW)
    return view


def on_change(node: Any, config_classes: ConfigClasses,
              apply: Callable[[Dict[str, Any]], None],
              ) -> Tuple[Callable[..., Any], Callable[..., None]]:
    """
    Make a node's run-time parameters take effect: `apply(changes)` after the checks.

    The cross checks of `refusal` see the node's current values with the changes.
    """
    def validate(changes: Mapping[str, Any]) -> Optional[str]:
        current = {p.name: node.get_parameter(p.name).value for p in table(config_classes)
                   if p.name in ('position_min', 'position_max', 'initial_pose')}
        current.update(changes)
        return refusal(current)
    return parameters.on_change(node, run_time(config_classes), apply, validate)
