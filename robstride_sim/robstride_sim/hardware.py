# SPDX-License-Identifier: Apache-2.0
"""
The hardware-interface logic of robstride_hardware_interface, in plain Python.

Mirrors upstream's ros2_control read()/write() cycle over a CAN bus (a SimBus or a
python-can CanTransport: only frames cross the boundary): read() decodes feedback and detects
stale joints, write() sends motion frames, re-enables joints not confirmed torqued (at most
every enable_retry_s per joint) and sends Disable to lost, faulted or torque-off joints.
The service semantics (get/set/zero/reboot/set_torque/reactivate) are methods here; the ROS
node only translates.

Units at this API are joint-side: position rad, velocity rad/s, effort N*m, after the joint
direction (+1/-1) is applied. Parameter writes by index go to the motor untransformed.

Command safety (before any frame is encoded): a joint command is refused whole, with a reason
and a counter (`refused`), when a commanded joint's last feedback is older than
max_feedback_age_s, a value is NaN/inf, or a value is outside the model's range; write()
checks every motion frame's fields against the model again and sends nothing it refuses.

This module is the RobstrideHardware class, the cycle and the service semantics; the joints
(hardware_joints), the exceptions (hardware_errors) and the command checks (command_safety)
are modules of their own.
"""
import math
from typing import Callable, Dict, List, Optional, Sequence

from . import protocol as proto
from .bus import Bus, BUS_NOT_OPEN, BusError
from .command_safety import check_command, unsafe_motion
from .hardware_errors import (CommandError, CommandIgnoredError, ReactivationError,
                              UnknownItemError, UnknownMotorError)
from .hardware_joints import JointConfig, JointRuntime, RUN_STATE_RESET, validate_joints
from .logbound import clip
from .params import ParamError, PARAMS_BY_NAME, parse_index, validate_write

# The API of the hardware interface; the joints and exceptions re-exported from their modules.
__all__ = ['COMM_STATE_BUS_NOT_OPEN', 'COMM_STATE_OK', 'COMM_STATE_SEND_FAIL', 'CommandError',
           'CommandIgnoredError', 'GAIN_ITEMS', 'GET_ITEMS', 'JointConfig', 'JointRuntime',
           'ReactivationError', 'RobstrideHardware', 'UnknownItemError', 'UnknownMotorError']

COMM_STATE_OK = 0
COMM_STATE_BUS_NOT_OPEN = -1
COMM_STATE_SEND_FAIL = -2

RUN_MODE_INDEX = PARAMS_BY_NAME['run_mode'].index

GET_ITEMS = ('position', 'velocity', 'torque', 'effort', 'temperature', 'run_state',
             'fault_bits')
GAIN_ITEMS = ('kp', 'kd')


class RobstrideHardware:
    """read()/write() cycle, commands and service semantics over one bus."""

    def __init__(self, joints: Sequence[JointConfig], bus: Bus, host_id: int = 0xFD,
                 error_timeout_s: float = 4.0, freeze_on_joint_loss: bool = True,
                 enable_retry_s: float = 0.2, max_feedback_age_s: float = 0.1,
                 log: Optional[Callable[[str, str], None]] = None) -> None:
        validate_joints(joints)
        self.bus = bus
        self.host_id = host_id
        self.error_timeout_s = error_timeout_s
        self.max_feedback_age_s = max_feedback_age_s
        self.refused: Dict[str, int] = {}   # reason -> joint commands / frames refused
        self.rx_errors = 0            # frames for us that do not decode (garbage)
        self.rx_ignored = 0           # frames for another host / motor, or of no interest
        self._now: Optional[float] = None   # time of the last read()
        self.freeze_on_joint_loss = freeze_on_joint_loss
        self.enable_retry_s = enable_retry_s
        self._log = log or (lambda level, msg: None)
        self.joints: List[JointRuntime] = [
            JointRuntime(cfg=j, kp=j.kp, kd=j.kd) for j in joints]
        self._by_id = {j.cfg.can_id: j for j in self.joints}
        self._by_name = {j.cfg.name: j for j in self.joints}
        self.comm_state = COMM_STATE_OK
        self.frozen = False
        self.torque_on = True
        self._active_since: Optional[float] = None

    # --- lifecycle -----------------------------------------------------------------------

    def activate(self, now: float) -> None:
        """
        Do what on_activate does: accept commands again and hold every joint where it is.

        write() then (re-)enables the motors.
        """
        self._active_since = now
        self.frozen = False
        for j in self.joints:
            j.lost = False
            self._hold(j)

    def reactivate(self, now: float) -> None:
        """Recover from a joint loss. Refused while a joint's feedback is still stale."""
        stale = [j.cfg.name for j in self.joints if self._is_stale(j, now)]
        if stale:
            raise ReactivationError('no fresh feedback from ' + ', '.join(stale))
        self.activate(now)

    @staticmethod
    def _hold(j: JointRuntime) -> None:
        # Hold the last decoded position (none yet: set on first feedback).
        j.target_position = (j.position * j.cfg.direction) if j.have_feedback else None
        j.target_velocity = 0.0
        j.target_effort = 0.0

    # --- read ------------------------------------------------------------------------------

    def read(self, now: float) -> None:
        """Decode every received frame, then lose joints whose feedback stopped."""
        self._now = now
        if self._active_since is None:
            self.activate(now)
        if self.bus.state == BUS_NOT_OPEN:
            self.comm_state = COMM_STATE_BUS_NOT_OPEN
        frames = self.bus.receive()
        for frame in frames:
            try:
                self._decode(frame, now)
            except proto.ProtocolError:
                self.rx_errors += 1       # wrong length for its type: garbage, dropped
        for j in self.joints:
            if not j.lost and self._is_stale(j, now):
                self._lose(j, now)

    def _decode(self, frame: proto.CanFrame, now: float) -> None:
        kind = frame.comm_type
        j = self._by_id.get(proto.feedback_motor_id(frame))
        if (j is None or frame.dest != self.host_id
                or kind not in (proto.CommType.FEEDBACK, proto.CommType.FAULT)):
            self.rx_ignored += 1          # another host's, an unknown motor's, or no state
            return
        if kind == proto.CommType.FEEDBACK:
            (_, run_state, fault_flags, j.position, j.velocity, j.torque,
             j.temperature) = proto.decode_feedback_fields(j.cfg.model, frame)
            if run_state != j.run_state:
                self._log('info', f'{j.cfg.name}: run_state {j.run_state} -> {run_state}')
            j.run_state = run_state
            if fault_flags == 0:
                j.fault_bits = 0      # the motor reports no fault: anything latched cleared
            elif j.fault_bits == 0:
                # Only the summary flags so far; a fault frame refines the word.
                j.fault_bits = proto.flags_to_fault_word(fault_flags)
        else:
            word = proto.decode_fault(frame)
            if word and word != j.fault_bits:
                self._log('error', f'{j.cfg.name}: fault_bits 0x{word:X}')
            j.fault_bits = word
        j.last_feedback = now
        if not j.have_feedback:
            j.have_feedback = True
            if j.target_position is None:
                self._hold(j)

    def _is_stale(self, j: JointRuntime, now: float) -> bool:
        ref = j.last_feedback if j.last_feedback is not None else self._active_since
        return ref is not None and now - ref > self.error_timeout_s

    def _lose(self, j: JointRuntime, now: float) -> None:
        j.lost = True
        self._log('error', f'{j.cfg.name} (id {j.cfg.can_id}): no feedback for '
                           f'{self.error_timeout_s * 1000:.0f} ms, joint lost')
        if self.freeze_on_joint_loss and not self.frozen:
            self.frozen = True
            for other in self.joints:
                self._hold(other)
            self._log('error', 'freeze_on_joint_loss: all joints hold position, commands '
                               'ignored until reactivation')

    # --- write -----------------------------------------------------------------------------

    def write(self, now: float) -> None:
        """Send one frame per joint (Stop, Enable or motion); comm_state OK if all went."""
        ok = True
        for j in self.joints:
            # kp/kd from Set take effect here, never earlier.
            if j.pending_gains:
                j.kp = j.pending_gains.pop('kp', j.kp)
                j.kd = j.pending_gains.pop('kd', j.kd)
            ok &= self._write_joint(j, now)
        if ok:
            self.comm_state = COMM_STATE_OK

    def _write_joint(self, j: JointRuntime, now: float) -> bool:
        cid = j.cfg.can_id
        if j.lost or j.fault_bits or not self.torque_on:
            return self._send(proto.encode_stop(self.host_id, cid), now)
        if not j.enabled:
            due = j.last_enable is None or now - j.last_enable >= self.enable_retry_s
            if due:
                j.last_enable = now
                return self._send(proto.encode_enable(self.host_id, cid), now)
        if j.target_position is None:
            return True               # nothing to command before the first feedback
        d = j.cfg.direction
        fields = (d * j.target_position, d * j.target_velocity, j.kp, j.kd,
                  d * j.target_effort)
        problem = unsafe_motion(j.cfg.model, *fields)
        if problem:
            # Never reached through command()/set_item(); a last guard before encoding.
            self._count('unsafe_frame')
            self._log('error', f'{j.cfg.name}: motion frame not sent: {problem}')
            return True
        frame = proto.encode_motion(j.cfg.model, cid, *fields)
        return self._send(frame, now)

    def _count(self, reason: str) -> None:
        self.refused[reason] = self.refused.get(reason, 0) + 1

    def _send(self, frame: proto.CanFrame, now: float) -> bool:
        try:
            self.bus.send(frame, now)
            return True
        except BusError as exc:
            self.comm_state = (COMM_STATE_BUS_NOT_OPEN if exc.state == BUS_NOT_OPEN
                               else COMM_STATE_SEND_FAIL)
            return False

    # --- commands --------------------------------------------------------------------------

    def command(self, names: Sequence[str], positions: Sequence[float],
                velocities: Sequence[float], efforts: Sequence[float],
                now: Optional[float] = None) -> None:
        """
        Apply joint targets, all or nothing.

        Each of positions/velocities/efforts is empty (keep that target) or one value per
        name; names empty means all joints in joint order. Validates everything first and
        applies nothing on bad input: raises CommandError (reason counted in `refused`),
        CommandIgnoredError while frozen. `now` defaults to the time of the last read().
        """
        if self.frozen:
            raise CommandIgnoredError('frozen after a joint loss; call reactivate')
        try:
            check_command(self.joints, self._by_name, names, positions, velocities, efforts,
                          self._now if now is None else now, self.max_feedback_age_s)
        except CommandError as exc:
            self._count(exc.reason)
            raise
        if not names:
            names = [j.cfg.name for j in self.joints]
        targets = [self._by_name[name] for name in names]
        for i, j in enumerate(targets):
            if positions:
                j.target_position = float(positions[i])
            if velocities:
                j.target_velocity = float(velocities[i])
            if efforts:
                j.target_effort = float(efforts[i])

    # --- services --------------------------------------------------------------------------

    def joint_by_id(self, can_id: int) -> JointRuntime:
        """Joint of a CAN id; UnknownMotorError if none."""
        try:
            return self._by_id[int(can_id)]
        except (KeyError, TypeError, ValueError):
            raise UnknownMotorError(f'no joint with CAN id {clip(can_id)}') from None

    def get_item(self, can_id: int, item: str) -> float:
        """Read one decoded value (no round trip); item names are matched exactly."""
        j = self.joint_by_id(can_id)
        key = item
        d = j.cfg.direction
        if key == 'position':
            return d * j.position
        if key == 'velocity':
            return d * j.velocity
        if key in ('torque', 'effort'):
            return d * j.torque
        if key == 'temperature':
            return j.temperature
        if key == 'run_state':
            return float(j.run_state)
        if key == 'fault_bits':
            return float(j.fault_bits)
        raise UnknownItemError(f'unknown item {clip(item)}; known: {", ".join(GET_ITEMS)}')

    def set_item(self, can_id: int, item: str, value: float, now: float) -> None:
        """
        Set kp/kd (queued for the next write()) or write a parameter by index.

        A parameter write is validated first (ParamError) and then sent. run_mode changes
        only in reset on a real motor, so a run_mode write is preceded by a Stop; write()
        re-enables the joint as usual.
        """
        j = self.joint_by_id(can_id)
        key = item
        value = float(value)
        if key in GAIN_ITEMS:
            top = j.cfg.model.kp_max if key == 'kp' else j.cfg.model.kd_max
            if not math.isfinite(value) or not 0.0 <= value <= top:
                raise ParamError(f'{key} {value:g} outside [0, {top:g}] for {j.cfg.model.name}')
            j.pending_gains[key] = value
            return
        index = parse_index(item)
        validate_write(j.cfg.model, index, value)
        frames = [proto.encode_param_write(self.host_id, j.cfg.can_id, index, value)]
        if index == RUN_MODE_INDEX:
            frames.insert(0, proto.encode_stop(self.host_id, j.cfg.can_id))
            j.run_state = RUN_STATE_RESET     # re-enabled by write() once the mode is set
        for frame in frames:
            if not self._send(frame, now):
                raise BusError('not open' if self.comm_state == COMM_STATE_BUS_NOT_OPEN
                               else 'send fail')

    def set_zero(self, can_id: int, now: float) -> None:
        """Send Set-Zero; the held target moves with the zero."""
        j = self.joint_by_id(can_id)
        if not self._send(proto.encode_set_zero(self.host_id, j.cfg.can_id), now):
            raise BusError('send failed')
        # The held target moves with the zero, so the motor does not jump to the old angle.
        shift = j.position * j.cfg.direction
        if j.target_position is not None:
            j.target_position -= shift

    def reboot(self, can_id: int, now: float) -> None:
        """Stop with the clear-fault flag, whatever fault_bits says; write() re-enables."""
        j = self.joint_by_id(can_id)
        if not self._send(proto.encode_stop(self.host_id, j.cfg.can_id, clear_fault=True), now):
            raise BusError('send failed')

    def set_torque(self, on: bool) -> None:
        """Torque off: Stop every joint, no re-enable. On: re-enable where the joints are."""
        if on and not self.torque_on:
            for j in self.joints:
                self._hold(j)     # torque back on where the joint is now, not at old targets
        self.torque_on = bool(on)
