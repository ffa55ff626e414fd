# SPDX-License-Identifier: Apache-2.0
"""
robstride_hardware_interface: the RobStride hardware interface node (see README.md).

It drives simulated motors in its own process (`can_interface: sim`) or motors on a CAN bus
through python-can (any other `can_interface`), real ones or robstride_fake_motors; with
`fake_motors: true` it runs the simulated motors itself as a bus peer (python-can `virtual`).
The node is thin: the motors (motor.py), the buses (bus.py, canbus.py) and the read/write
logic (hardware.py) are plain Python. One thread does everything: node_runtime's DeadlineLoop
runs the cycle at update_rate_hz and spins rclpy's EventsExecutor between the deadlines
(services and parameters dispatched in the same thread, without rebuilding a wait set of
~15 entities in Python every 2 ms, and without a second thread); every service handler
returns immediately (no waiting inside a callback). ~/joint_commands, the one input at the
loop's rate, is a raw node_runtime PolledSubscription that no executor wakes for: each
cycle starts by taking every waiting command and applying them in arrival order, their
fields read from the bytes (command_cdr.py) (issue 40: an executor wake-up per message cost
rclpy three times C's CPU). The two per-cycle messages are published as CDR bytes
(state_cdr.py).
"""
import contextlib
import time
from typing import (Any, Callable, ContextManager, List, Mapping, Optional, Sequence, Sized,
                    Tuple, Type, TYPE_CHECKING)

from node_runtime import runner
from node_runtime.parameters import declare, on_change, Parameter
from node_runtime.polled import PolledSubscription
from rclpy.clock import Clock, ClockType
from rclpy.experimental import EventsExecutor
from rclpy.node import Node
from robstride_interfaces.msg import RobstrideState
from robstride_interfaces.srv import (GetDataFromRobstride, RebootRobstride,
                                      SetDataToRobstride, SetZeroRobstride)
from sensor_msgs.msg import JointState
from std_srvs.srv import SetBool, Trigger

from .bus import Bus, BUS_STATES, BusError, SimBus
from .command_cdr import decode as decode_command
from .hardware import (CommandError, CommandIgnoredError, JointConfig, ReactivationError,
                       RobstrideHardware, UnknownItemError, UnknownMotorError)
from .logbound import clip, RateLimitedLog
from .models import get_model
from .motor import SimMotor
from .params import ParamError
from .protocol import FAULT_DEFINED_BITS
from .qos import COMMAND_QOS, STATE_QOS
from .state_cdr import StateEncoder

if TYPE_CHECKING:     # python-can and the peer are imported on a CAN bus only (start-up time)
    import can

    from . import fake_motors

NODE_NAME = 'robstride_hardware_interface'
DEFAULT_NAMESPACE = '/robstride'

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


class RobstrideSimNode(Node):  # type: ignore[misc,unused-ignore]  # rclpy is Any here
    """The hardware interface node over simulated or python-can buses."""

    bus: Bus    # set in __init__: a SimBus, or a CanTransport on a CAN bus

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(NODE_NAME, **kwargs)
        self._limited = RateLimitedLog(self._log)
        self.peer: Optional['fake_motors.FakeMotorPeer'] = None
        self.motors: Optional[List[SimMotor]] = None
        self._motor_lock: ContextManager[object] = contextlib.nullcontext()
        try:
            p = declare(self, STARTUP_PARAMETERS)
            joints = self._joint_configs(p)
            n = len(joints)
            self._sim_parameters = sim_parameters(n)
            p.update(declare(self, self._sim_parameters))
        except ValueError as exc:
            raise ConfigError(str(exc)) from None
        self._check_config(p, joints)
        initial = p['sim.initial_positions']
        self._check_length('sim.initial_positions', initial, n)

        interface = p['can_interface']
        self.mode = 'sim' if interface == 'sim' else 'can'
        if self.mode == 'sim' or p['fake_motors']:
            self.motors = [SimMotor(j.can_id, j.model) for j in joints]
            for motor, j, q in zip(self.motors, joints, initial):
                motor.position = j.direction * float(q)
        if self.mode == 'sim':
            self.bus = SimBus(self.motors or (), host_id=p['host_id'])   # motors set in sim mode
        else:
            # python-can only on a CAN bus: its import is a fifth of the node's start-up.
            from .canbus import CanTransport, open_python_can
            from .fake_motors import FakeMotorPeer

            def open_bus() -> 'can.BusABC':
                return open_python_can(interface, p['can_channel'], p['can_bitrate'])
            if self.motors is not None:
                self.peer = FakeMotorPeer(self.motors, open_bus).start()
                self._motor_lock = self.peer.lock
            self.bus = CanTransport(open_bus, host_id=p['host_id'], log=self._log,
                                    name=f'{interface}:{p["can_channel"]}')
        self.hw = RobstrideHardware(
            joints, self.bus, host_id=p['host_id'],
            error_timeout_s=p['error_timeout_ms'] / 1000.0,
            freeze_on_joint_loss=p['freeze_on_joint_loss'],
            enable_retry_s=p['enable_retry_ms'] / 1000.0,
            max_feedback_age_s=p['max_feedback_age_ms'] / 1000.0, log=self._log)
        sim_values = {name: p[name] for name in SIM_SCALAR_NAMES + SIM_ARRAY_NAMES}
        reason = self._sim_refusal(sim_values, startup=True)
        if reason:
            raise ConfigError(reason)
        self._apply_sim_changes(sim_values)
        # `ros2 param set` of a sim.* parameter: checked, then applied; the rest is read-only.
        on_change(self, self._sim_parameters, self._apply_sim_changes, self._sim_refusal)

        self.state_pub = self.create_publisher(RobstrideState, '~/robstride_state', STATE_QOS)
        self.js_pub = (self.create_publisher(JointState, 'joint_states', STATE_QOS)
                       if p['publish_joint_states'] else None)
        # Taken at the start of every cycle (_take_commands), never by an executor.
        # Raw: the fields used are read from the bytes (command_cdr.decode).
        self.commands: PolledSubscription[bytes] = PolledSubscription(
            self, JointState, '~/joint_commands', COMMAND_QOS, raw=True)
        self.create_service(GetDataFromRobstride, '~/get_data_from_robstride', self._on_get)
        self.create_service(SetDataToRobstride, '~/set_data_to_robstride', self._on_set)
        self.create_service(SetZeroRobstride, '~/set_zero_robstride', self._on_zero)
        self.create_service(RebootRobstride, '~/reboot_robstride', self._on_reboot)
        self.create_service(SetBool, '~/set_torque', self._on_set_torque)
        self.create_service(Trigger, '~/reactivate', self._on_reactivate)

        self._names = [j.name for j in joints]
        self._cdr = StateEncoder([j.can_id for j in joints], self._names)
        # The first cycle activates the interface (staleness counts from there, not from
        # construction: the first spin can come much later on a loaded machine).
        self._last = time.monotonic()
        rate = float(p['update_rate_hz'])
        # The cycle runs in the runner's DeadlineLoop (runs_in_loop, period, tick), on the
        # monotonic clock, also with use_sim_time: a driver keeps reading and writing the bus
        # while a simulation's /clock is paused (its stamps follow the node clock).
        self.period = 1.0 / rate
        self.timer: Any = None
        where = ('simulated in-process' if self.mode == 'sim' else
                 f'on {interface} {p["can_channel"]!r}'
                 + (' (fake motors in this process)' if self.peer else ''))
        self.get_logger().info(
            f'{n} RobStride motor(s) {where}: ' + ', '.join(
                f'{j.name}=id{j.can_id}/{j.model.name}' for j in joints) + f' at {rate:g} Hz')

    runs_in_loop = True

    def tick(self, deadline: float) -> None:
        """Run one read/publish/write cycle (the runner's DeadlineLoop, every period)."""
        self._cycle()

    def start_timer(self) -> None:
        """Run the cycle from a steady executor timer instead (a loop at another rate)."""
        if self.timer is None:
            self.timer = self.create_timer(self.period, self._cycle,
                                           clock=Clock(clock_type=ClockType.STEADY_TIME))

    def close(self) -> None:
        """Stop the CAN threads (the node itself is destroyed by the caller)."""
        self._closed = True
        for part in (self.bus, self.peer):
            if part is not None:
                part.close()

    _closed = False

    def destroy_node(self) -> None:
        """Destroy the polled subscription too (the node's own destroy_node would not)."""
        commands = getattr(self, 'commands', None)
        if commands is not None:
            commands.destroy()
        super().destroy_node()

    # --- configuration ---------------------------------------------------------------------

    @staticmethod
    def _check_length(name: str, values: Sized, n: int) -> None:
        if len(values) != n:
            raise ConfigError(f'{name} has {len(values)} entries, joint_names has {n}')

    @staticmethod
    def _check_config(p: Mapping[str, Any], joints: Sequence[JointConfig]) -> None:
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

    def _joint_configs(self, p: Mapping[str, Any]) -> List[JointConfig]:
        names = list(p['joint_names'])
        n = len(names)
        for key in ('can_ids', 'models', 'directions', 'kp', 'kd'):
            self._check_length(key, p[key], n)
        try:
            joints = [JointConfig(name, int(cid), get_model(model), int(d), float(kp), float(kd))
                      for name, cid, model, d, kp, kd in zip(
                          names, p['can_ids'], p['models'], p['directions'], p['kp'], p['kd'])]
            for j in joints:
                j.validate()
        except ValueError as exc:
            raise ConfigError(str(exc)) from None
        return joints

    def _sim_refusal(self, changes: Mapping[str, Any], startup: bool = False) -> Optional[str]:
        """Reason to refuse sim.* changes (checked whole before any is applied), or None."""
        n = len(self.hw.joints)
        for name, value in changes.items():
            if self.motors is None and name != 'sim.bus_state' and not startup:
                return (f'{name}: no simulated motors in this process '
                        '(can_interface is a real bus, fake_motors false)')
            if name in SIM_ARRAY_NAMES and len(value) != n:
                return f'{name} needs {n} entries'
            if name == 'sim.inject_fault_bits':
                # A reserved bit has no feedback summary flag: the next feedback would read
                # "no fault" while the motor stays latched and refuses Enable.
                reserved = [int(v) & ~FAULT_DEFINED_BITS for v in value]
                if any(reserved) or min(value) < 0:
                    return (f'{name}: only the defined fault bits '
                            f'(mask 0x{FAULT_DEFINED_BITS:X}) can be injected, got {value}')
        return None

    def _apply_sim_changes(self, changes: Mapping[str, Any]) -> None:
        for name, value in changes.items():
            if name == 'sim.bus_state':
                self.bus.inject_state(value)
            elif self.motors is not None:
                with self._motor_lock:
                    self._apply_sim(self.motors, name, value)

    def _apply_sim(self, motors: List[SimMotor], name: str, value: Any) -> None:
        joints = self.hw.joints
        if name == 'sim.calibrate':
            for m, v in zip(motors, value):
                if v:
                    m.calibrate(time.monotonic())
        elif name == 'sim.hung':
            for m, v in zip(motors, value):
                m.hung = bool(v)
        elif name == 'sim.load_torque':
            for m, j, v in zip(motors, joints, value):
                m.load_torque = j.cfg.direction * float(v)
        elif name == 'sim.inject_fault_bits':
            for m, v in zip(motors, value):
                if int(v):
                    m.latch(int(v))
        elif name == 'sim.bus_voltage':
            for m in motors:
                m.vbus = float(value)
        elif name == 'sim.heat_gain':
            for m in motors:
                m.heat_gain = float(value)
        elif name == 'sim.ambient_c':
            for m in motors:
                m.ambient = float(value)

    # --- cycle -----------------------------------------------------------------------------

    def _cycle(self) -> None:
        if self._closed or not self.context.ok():
            return                    # shutting down: never publish on a dying context
        now = time.monotonic()
        # A stalled process must not produce one huge physics step.
        dt = min(now - self._last, 0.05)
        self._last = now
        self._take_commands(now)
        self.bus.step(dt, now)
        self.hw.read(now)
        self._publish()
        self.hw.write(now)

    def _publish(self) -> None:
        if not self.context.ok():
            return
        # The node clock's time, split as Time.to_msg() splits it. With use_sim_time it reads
        # 0 until the first /clock arrives: nothing to stamp with yet, so nothing published
        # (the bus cycle runs on regardless).
        stamp_ns = self.get_clock().now().nanoseconds
        if stamp_ns == 0:
            return
        sec, nanosec = divmod(stamp_ns, 1_000_000_000)
        joints = self.hw.joints
        self.state_pub.publish(self._cdr.encode_state(
            sec, nanosec, self.hw.comm_state, [j.enabled for j in joints],
            [j.run_state for j in joints], [j.fault_bits for j in joints]))
        if self.js_pub is not None:
            self.js_pub.publish(self._cdr.encode_joint_state(
                sec, nanosec, [j.cfg.direction * j.position for j in joints],
                [j.cfg.direction * j.velocity for j in joints],
                [j.cfg.direction * j.torque for j in joints]))

    def _log(self, level: str, text: str) -> None:
        # rclpy forbids one call site logging at different severities: one call per level.
        logger = self.get_logger()
        if level == 'error':
            logger.error(text)
        elif level == 'warning':
            logger.warning(text)
        else:
            logger.info(text)

    # --- topics and services ---------------------------------------------------------------

    def _take_commands(self, now: float) -> None:
        """Apply every waiting joint command, oldest first (each all or nothing, as sent)."""
        for raw in self.commands.take_all():
            try:
                fields = decode_command(raw)
            except Exception as exc:    # noqa: B902 - bytes rclpy cannot read either
                self._limited.log('warning', 'command malformed',
                                  f'joint command not readable, ignored: {clip(str(exc))}')
                continue
            self._on_command(*fields, now)

    def _on_command(self, names: List[str], positions: List[float], velocities: List[float],
                    efforts: List[float], now: float) -> None:
        try:
            self.hw.command(names, positions, velocities, efforts, now=now)
        except CommandIgnoredError as exc:
            self._limited.log('warning', 'command ignored', f'joint command ignored: {exc}')
        except CommandError as exc:
            total = self.hw.refused.get(exc.reason, 0)
            self._limited.log('warning', f'command {exc.reason}',
                              f'joint command refused ({exc.reason}, {total} so far): {exc}')

    def _serve(self, resp: Any, verb: str, what: Callable[[], str], action: Callable[[], object],
               errors: Tuple[Type[Exception], ...]) -> Any:
        """
        Run one service request: result=true when action() succeeds.

        On one of the expected errors result=false and the reason is logged (bounded, at most
        one line per verb and kind of error per second). Anything else is a bug.
        """
        try:
            action()
            resp.result = True
        except errors as exc:
            self._limited.log('warning', f'{verb} {type(exc).__name__}',
                              f'{what()} rejected: {exc}')
            resp.result = False
        return resp

    def _on_get(self, req: Any, resp: Any) -> Any:
        def read() -> None:
            resp.item_data = float(self.hw.get_item(req.id, req.item_name))
        return self._serve(resp, 'get', lambda: f'get id={req.id} {clip(req.item_name)}', read,
                           (UnknownMotorError, UnknownItemError))

    def _on_set(self, req: Any, resp: Any) -> Any:
        return self._serve(
            resp, 'set', lambda: f'set id={req.id} {clip(req.item_name)}={req.item_data:g}',
            lambda: self.hw.set_item(req.id, req.item_name, req.item_data, time.monotonic()),
            (UnknownMotorError, ParamError, BusError))

    def _on_zero(self, req: Any, resp: Any) -> Any:
        return self._serve(resp, 'set_zero', lambda: f'set_zero id={req.id}',
                           lambda: self.hw.set_zero(req.id, time.monotonic()),
                           (UnknownMotorError, BusError))

    def _on_reboot(self, req: Any, resp: Any) -> Any:
        return self._serve(resp, 'reboot', lambda: f'reboot id={req.id}',
                           lambda: self.hw.reboot(req.id, time.monotonic()),
                           (UnknownMotorError, BusError))

    def _on_set_torque(self, req: Any, resp: Any) -> Any:
        self.hw.set_torque(req.data)
        resp.success = True
        resp.message = 'torque on' if req.data else 'torque off'
        return resp

    def _on_reactivate(self, req: Any, resp: Any) -> Any:
        try:
            self.hw.reactivate(time.monotonic())
            resp.success, resp.message = True, 'reactivated'
        except ReactivationError as exc:
            self._limited.log('warning', 'reactivate', f'reactivate rejected: {exc}')
            resp.success, resp.message = False, str(exc)
        return resp


def main(args: Optional[List[str]] = None) -> int:
    """
    Run the node until SIGINT/SIGTERM (node_runtime.runner); return the exit status.

    0 on a stop, 2 with one stderr line for a configuration error, 1 for any other failure.
    One thread: the runner's DeadlineLoop runs the cycle and spins the EventsExecutor
    between the deadlines. The node (its CAN threads) is closed and destroyed before rclpy
    shuts down, so no callback ever runs on a shut-down context.
    """
    # Default namespace /robstride unless the command line sets one (-r __ns:=...).
    return runner.run_nodes([lambda: RobstrideSimNode(namespace=DEFAULT_NAMESPACE)], args,
                            executor=EventsExecutor)


if __name__ == '__main__':
    raise SystemExit(main())
