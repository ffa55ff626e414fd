# SPDX-License-Identifier: Apache-2.0
"""
robstride_hardware_interface: the RobStride hardware interface node (see README.md).

It drives simulated motors in its own process (`can_interface: sim`) or motors on a CAN bus
through python-can (any other `can_interface`), real ones or robstride_fake_motors; with
`fake_motors: true` it runs the simulated motors itself as a bus peer (python-can `virtual`).
The node is thin: the motors (motor.py), the buses (bus.py, canbus.py) and the read/write
logic (hardware.py) are plain Python; so are its parameters (node_parameters.py), their
sim.* fault injection (sim_injection.py) and its service handlers (node_services.py). This
module builds the node and runs its cycle. One thread does everything: node_runtime's
DeadlineLoop runs the cycle at update_rate_hz and spins rclpy's EventsExecutor between the
deadlines (services and parameters dispatched in the same thread, without rebuilding a wait
set of ~15 entities in Python every 2 ms, and without a second thread); every service handler
returns immediately (no waiting inside a callback). ~/joint_commands, the one input at the
loop's rate, is a raw node_runtime PolledSubscription that no executor wakes for: each
cycle starts by taking every waiting command and applying them in arrival order, their
fields read from the bytes (command_cdr.py) (issue 40: an executor wake-up per message cost
rclpy three times C's CPU). The two per-cycle messages are published as CDR bytes
(state_cdr.py).
"""
import contextlib
import time
from typing import Any, ContextManager, List, Optional, TYPE_CHECKING

from node_runtime import runner
from node_runtime.parameters import declare, on_change
from node_runtime.polled import PolledSubscription
from rclpy.clock import Clock, ClockType
from rclpy.experimental import EventsExecutor
from rclpy.node import Node
from robstride_interfaces.msg import RobstrideState
from robstride_interfaces.srv import (GetDataFromRobstride, RebootRobstride,
                                      SetDataToRobstride, SetZeroRobstride)
from sensor_msgs.msg import JointState
from std_srvs.srv import SetBool, Trigger

from .bus import Bus, SimBus
from .command_cdr import decode as decode_command
from .hardware import RobstrideHardware
from .hardware_errors import CommandError, CommandIgnoredError
from .logbound import clip, RateLimitedLog
from .motor import SimMotor
from .node_parameters import (check_config, check_length, ConfigError, joint_configs,
                              SIM_ARRAY_NAMES, sim_parameters, SIM_SCALAR_NAMES,
                              STARTUP_PARAMETERS)
from .node_services import RobstrideServices
from .qos import COMMAND_QOS, STATE_QOS
from .sim_injection import SimInjection
from .state_cdr import StateEncoder

if TYPE_CHECKING:     # python-can and the peer are imported on a CAN bus only (start-up time)
    import can

    from . import fake_motors

NODE_NAME = 'robstride_hardware_interface'
DEFAULT_NAMESPACE = '/robstride'


class RobstrideSimNode(Node):  # type: ignore[misc,unused-ignore]  # rclpy is Any here
    """The hardware interface node over simulated or python-can buses."""

    bus: Bus    # set in __init__: a SimBus, or a CanTransport on a CAN bus

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(NODE_NAME, **kwargs)
        self._limited = RateLimitedLog(self._log)
        self.peer: Optional['fake_motors.FakeMotorPeer'] = None
        self.motors: Optional[List[SimMotor]] = None
        motor_lock: ContextManager[object] = contextlib.nullcontext()
        try:
            p = declare(self, STARTUP_PARAMETERS)
            joints = joint_configs(p)
            n = len(joints)
            self._sim_parameters = sim_parameters(n)
            p.update(declare(self, self._sim_parameters))
        except ValueError as exc:
            raise ConfigError(str(exc)) from None
        check_config(p, joints)
        initial = p['sim.initial_positions']
        check_length('sim.initial_positions', initial, n)

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
                motor_lock = self.peer.lock
            self.bus = CanTransport(open_bus, host_id=p['host_id'], log=self._log,
                                    name=f'{interface}:{p["can_channel"]}')
        self.hw = RobstrideHardware(
            joints, self.bus, host_id=p['host_id'],
            error_timeout_s=p['error_timeout_ms'] / 1000.0,
            freeze_on_joint_loss=p['freeze_on_joint_loss'],
            enable_retry_s=p['enable_retry_ms'] / 1000.0,
            max_feedback_age_s=p['max_feedback_age_ms'] / 1000.0, log=self._log)
        self.sim = SimInjection(self.hw.joints, self.motors, self.bus, motor_lock)
        sim_values = {name: p[name] for name in SIM_SCALAR_NAMES + SIM_ARRAY_NAMES}
        reason = self.sim.refusal(sim_values, startup=True)
        if reason:
            raise ConfigError(reason)
        self.sim.apply(sim_values)
        # `ros2 param set` of a sim.* parameter: checked, then applied; the rest is read-only.
        on_change(self, self._sim_parameters, self.sim.apply, self.sim.refusal)

        self.state_pub = self.create_publisher(RobstrideState, '~/robstride_state', STATE_QOS)
        self.js_pub = (self.create_publisher(JointState, 'joint_states', STATE_QOS)
                       if p['publish_joint_states'] else None)
        # Taken at the start of every cycle (_take_commands), never by an executor.
        # Raw: the fields used are read from the bytes (command_cdr.decode).
        self.commands: PolledSubscription[bytes] = PolledSubscription(
            self, JointState, '~/joint_commands', COMMAND_QOS, raw=True)
        services = RobstrideServices(self.hw, self._limited)
        self.create_service(GetDataFromRobstride, '~/get_data_from_robstride', services.on_get)
        self.create_service(SetDataToRobstride, '~/set_data_to_robstride', services.on_set)
        self.create_service(SetZeroRobstride, '~/set_zero_robstride', services.on_zero)
        self.create_service(RebootRobstride, '~/reboot_robstride', services.on_reboot)
        self.create_service(SetBool, '~/set_torque', services.on_set_torque)
        self.create_service(Trigger, '~/reactivate', services.on_reactivate)

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

    # --- joint commands --------------------------------------------------------------------

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
