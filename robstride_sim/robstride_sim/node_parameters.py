# SPDX-License-Identifier: Apache-2.0
"""
The parameters of robstride_hardware_interface: their declarations and start-up checks.

STARTUP_PARAMETERS (read once, read-only) and sim_parameters(n) (simulation and fault
injection, run-time) are the node's parameter tables (node_runtime.parameters); the checks
that involve several start-up parameters turn them into the joints' JointConfigs or raise
ConfigError (the executable exits 2 with its reason).
"""
from typing import Any, List, Mapping, Sequence, Sized, Tuple

from node_runtime.parameters import Parameter

from .bus import BUS_STATES
from .hardware_joints import JointConfig
from .models import get_model

# Start-up parameters (read once, read-only). Per-joint arrays are parallel, in joint order.
STARTUP_PARAMETERS = (
    Parameter('joint_names', ['joint_1', 'joint_2'],
              'joint names in joint order (the order of every per-joint array and of '
              'robstride_state)'),
    Parameter('can_ids', [1, 2], 'CAN id of the motor of each joint', value_range=(1, 127),
              constraints='one entry per joint, unique'),
    Parameter('models', ['RS02', 'RS03'], 'RobStride model of the motor of each joint (sets '
              'frame scaling and safety ranges)',
              constraints='one entry per joint; RS00 .. RS06 (case-insensitive)'),
    Parameter('directions', [1, 1], 'joint = direction * motor, per joint', choices=(1, -1),
              constraints='one entry per joint'),
    Parameter('kp', [20.0, 100.0], 'motion-mode stiffness per joint [N*m/rad] (change at run '
              'time with the set_data_to_robstride service, item kp)',
              constraints='one entry per joint; 0 .. kp max of the model'),
    Parameter('kd', [1.0, 4.0], 'motion-mode damping per joint [N*m*s/rad] (change at run time '
              'with the set_data_to_robstride service, item kd)',
              constraints='one entry per joint; 0 .. kd max of the model'),
    Parameter('can_interface', 'sim', 'bus: sim (simulated motors in this process) or a '
              'python-can interface (socketcan, pcan, slcan, gs_usb, virtual, ...)'),
    Parameter('can_channel', 'can0', 'python-can channel (e.g. can0); unused with sim'),
    Parameter('can_bitrate', 1000000, 'CAN bitrate [bit/s]; 0 keeps the own setting of the '
              'interface', value_range=(0, None)),
    Parameter('fake_motors', False, 'run the simulated motors in this process as a peer on '
              'the python-can bus (needs a python-can can_interface, e.g. virtual)'),
    Parameter('host_id', 0xFD, 'our own CAN id on the bus (no motor may use it)',
              value_range=(0, 255)),
    Parameter('update_rate_hz', 500.0, 'read/publish/write cycle rate [Hz]',
              value_range=(0.0, 2000.0), constraints='> 0'),
    Parameter('error_timeout_ms', 4000, 'a joint without feedback for this long is lost [ms]',
              value_range=(1, None)),
    Parameter('freeze_on_joint_loss', True, 'on a joint loss every joint holds its position '
              'and commands are ignored until ~/reactivate'),
    Parameter('enable_retry_ms', 200, 'Enable is re-sent at most this often per joint [ms]',
              value_range=(200, None)),
    Parameter('max_feedback_age_ms', 100, 'joint commands are refused when the feedback of a '
              'commanded joint is older than this [ms]', value_range=(1, None)),
    Parameter('publish_joint_states', True, 'publish sensor_msgs/JointState on joint_states'),
)
SIM_SCALAR_NAMES = ('sim.bus_voltage', 'sim.heat_gain', 'sim.ambient_c', 'sim.bus_state')
SIM_ARRAY_NAMES = ('sim.hung', 'sim.load_torque', 'sim.inject_fault_bits', 'sim.calibrate')


def sim_parameters(n: int) -> Tuple[Parameter, ...]:
    """Return the simulation/fault-injection parameters for `n` joints (run-time but the last)."""
    def per_joint(name: str, default: object, description: str) -> Parameter:
        return Parameter(name, [default] * n, description, read_only=False,
                         constraints=f'one entry per joint ({n})')
    return (
        Parameter('sim.bus_voltage', 48.0, 'bus voltage of the simulated motors [V]; below 18 '
                  'latches under-voltage, above 60 over-voltage', read_only=False,
                  value_range=(0.0, None)),
        Parameter('sim.heat_gain', 1.0, 'multiplies the winding heating (speeds up '
                  'over-temperature) [1]', read_only=False, value_range=(0.0, None)),
        Parameter('sim.ambient_c', 25.0, 'ambient temperature of the simulated motors [degC]',
                  read_only=False),
        Parameter('sim.bus_state', 'ok', 'injected bus state: comm_state -1 (not_open) or -2 '
                  '(send_fail), frames not delivered; also on a real bus', read_only=False,
                  choices=BUS_STATES),
        per_joint('sim.hung', False, 'true: that motor stops answering (hung MCU)'),
        per_joint('sim.load_torque', 0.0, 'external load on each joint, joint side [N*m]'),
        per_joint('sim.inject_fault_bits', 0, 'on each set: latch these fault bits per motor '
                  '(e.g. 128 = encoder uncalibrated)'),
        per_joint('sim.calibrate', False, 'on each set: true starts the encoder calibration '
                  'of that motor (run_state 1 for 1 s)'),
        Parameter('sim.initial_positions', [0.0] * n, 'start position of each simulated '
                  'joint, joint side [rad]', constraints=f'one entry per joint ({n})'),
    )


class ConfigError(ValueError):
    """Inconsistent start-up parameters."""


def check_length(name: str, values: Sized, n: int) -> None:
    """Raise ConfigError unless the per-joint array ``values`` has ``n`` entries."""
    if len(values) != n:
        raise ConfigError(f'{name} has {len(values)} entries, joint_names has {n}')


def check_config(p: Mapping[str, Any], joints: Sequence[JointConfig]) -> None:
    """Raise ConfigError for start-up parameters that do not fit together."""
    # Ranges of single parameters are checked by declare(); these involve several.
    rate = float(p['update_rate_hz'])
    if not rate > 0.0:
        raise ConfigError(f'update_rate_hz must be in (0, 2000], got {rate}')
    if p['host_id'] in [j.can_id for j in joints]:
        raise ConfigError(f'host_id {p["host_id"]} must be 0..255 and no motor\'s id')
    if p['fake_motors'] and p['can_interface'] == 'sim':
        raise ConfigError('fake_motors needs a python-can can_interface (e.g. virtual)')
    if p['can_interface'] != 'sim' and not p['can_channel']:
        raise ConfigError('can_channel is empty')


def joint_configs(p: Mapping[str, Any]) -> List[JointConfig]:
    """Return the validated joints of the start-up parameters (ConfigError if impossible)."""
    names = list(p['joint_names'])
    n = len(names)
    for key in ('can_ids', 'models', 'directions', 'kp', 'kd'):
        check_length(key, p[key], n)
    try:
        joints = [JointConfig(name, int(cid), get_model(model), int(d), float(kp), float(kd))
                  for name, cid, model, d, kp, kd in zip(
                      names, p['can_ids'], p['models'], p['directions'], p['kp'], p['kd'])]
        for j in joints:
            j.validate()
    except ValueError as exc:
        raise ConfigError(str(exc)) from None
    return joints
