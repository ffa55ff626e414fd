# SPDX-License-Identifier: Apache-2.0
"""
A simulated RobStride motor: run-state machine, latched faults, parameter table, physics.

It speaks CAN frames (protocol.py) and is plain Python, so it is unit-testable without ROS.
All quantities here are on the motor side (the hardware interface applies joint direction).
"""
import math
from typing import Dict, List, Optional, Tuple

from . import protocol as proto
from .models import MotorModel
from .params import (CAN_TIMEOUT_TICKS_PER_S, ParamError, PARAMS, PARAMS_BY_NAME,
                     RUN_MODE_CSP, RUN_MODE_CURRENT, RUN_MODE_MOTION, RUN_MODE_PP,
                     RUN_MODE_VELOCITY, validate_write)

RUN_STATE_RESET = 0
RUN_STATE_CALIBRATION = 1
RUN_STATE_MOTOR = 2

# Simulation constants (not vendor data; documented in the README).
AMBIENT_C = 25.0
OVERTEMP_C = 100.0           # latch FAULT_OVER_TEMPERATURE above this winding temperature
HEAT_RATE_C_PER_S = 2.0      # heating at full model torque with heat_gain 1
THERMAL_TIME_CONSTANT_S = 60.0
UNDERVOLTAGE_V = 18.0
OVERVOLTAGE_V = 60.0
NOMINAL_VBUS_V = 48.0
MAX_SUBSTEP_S = 0.005        # longer steps are split (keeps the thermal/PI explicit parts sane)
CALIBRATION_S = 1.0          # duration of the simulated encoder calibration (run_state 1)
# A latched fault is reported (type 21) at the next step, then again this often while it stays
# latched: the manual gives no rate (README, "Fault reports").
FAULT_REPORT_PERIOD_S = 0.1


def _pidx(name: str) -> int:
    return PARAMS_BY_NAME[name].index


IDX = {name: _pidx(name) for name in PARAMS_BY_NAME}


class SimMotor:
    """One motor on the simulated bus, addressed by its CAN id."""

    def __init__(self, can_id: int, model: MotorModel, mcu_id: Optional[bytes] = None) -> None:
        self.can_id = can_id
        self.model = model
        # 64-bit MCU id answered to a device-id request (type 0); made up per CAN id.
        self.mcu_id = bytes(mcu_id) if mcu_id is not None else (
            b'RS' + model.name[2:].encode('ascii')[:2].rjust(2, b'0')
            + can_id.to_bytes(4, 'big'))
        self.run_state = RUN_STATE_RESET
        self.faults = 0
        # fault word as latched, not yet sent (type 21)
        self._fault_report: Optional[int] = None
        # time of the last type-21 report of a standing fault
        self._fault_reported_at: Optional[float] = None
        self._calibration_end: Optional[float] = None   # end time of a running calibration
        self.position = 0.0          # rad, relative to the mechanical zero
        self.velocity = 0.0
        self.torque = 0.0            # motor torque actually applied
        self.temperature = AMBIENT_C
        self.params: Dict[int, float] = {i: spec.default_for(model) for i, spec in PARAMS.items()}
        # Last motion-control command (type 1): position, velocity, kp, kd, torque.
        self.motion: proto.MotionFields = (0.0, 0.0, 0.0, 0.0, 0.0)
        self._integral = 0.0         # velocity-loop integrator (A)
        # time of the last frame addressed to us (canTimeout)
        self._last_rx: Optional[float] = None
        # Environment / fault injection.
        self.hung = False            # MCU hung: answers nothing, keeps its last output
        self.load_torque = 0.0       # external torque on the shaft (N*m)
        self.vbus = NOMINAL_VBUS_V
        self.heat_gain = 1.0
        self.ambient = AMBIENT_C

    # --- bus side ----------------------------------------------------------------------

    def _feedback(self, host_id: int) -> proto.CanFrame:
        return proto.encode_feedback(self.model, host_id, self.can_id, self.run_state,
                                     self.faults, self.position, self.velocity, self.torque,
                                     self.temperature)

    def handle(self, frame: proto.CanFrame, now: float) -> List[proto.CanFrame]:
        """React to one host->motor frame; return the list of reply frames."""
        if self.hung or frame.dest != self.can_id or len(frame.data) != 8:
            return []
        self._last_rx = now
        kind = frame.comm_type
        host = proto.host_of(frame)
        if kind == proto.CommType.GET_ID:
            return [proto.encode_device_id_reply(self.can_id, self.mcu_id)]
        if kind == proto.CommType.MOTION:
            host = self._motion_host
            self.motion = proto.decode_motion(self.model, frame)
        elif kind == proto.CommType.ENABLE:
            # A motor with a latched fault, or calibrating, refuses to torque up.
            if self.faults == 0 and self.run_state != RUN_STATE_CALIBRATION:
                self.run_state = RUN_STATE_MOTOR
                self._integral = 0.0
            self._motion_host = host
        elif kind == proto.CommType.STOP:
            if self.run_state != RUN_STATE_CALIBRATION:
                self.run_state = RUN_STATE_RESET
            if frame.data[0] == 1:
                self._clear(self.faults)
            self._motion_host = host
        elif kind == proto.CommType.SET_ZERO:
            if frame.data[0] == 1:
                # Mechanical zero at the current position; a position target follows it.
                shift = self.position
                self.position = 0.0
                self.params[IDX['loc_ref']] -= shift
                p_des, v_des, kp, kd, t_ff = self.motion
                self.motion = (p_des - shift, v_des, kp, kd, t_ff)
            self._motion_host = host
        elif kind == proto.CommType.PARAM_WRITE:
            index, value = proto.decode_param(frame)
            self._motion_host = host
            try:
                validate_write(self.model, index, value)
            except ParamError:
                return []            # the real motor ignores invalid writes silently
            if index == IDX['run_mode']:
                if self.run_state == RUN_STATE_MOTOR:
                    # The real motor only changes mode in reset: ignored, answered as usual.
                    return [self._feedback(host)]
                if int(value) != int(self.params[index]):
                    self._integral = 0.0
            self.params[index] = value
        elif kind == proto.CommType.PARAM_READ:
            index = proto.decode_param(frame)[0]
            if index not in PARAMS:
                return [proto.encode_param_reply(host, self.can_id, index,
                                                 status=proto.PARAM_READ_FAILED)]
            return [proto.encode_param_reply(host, self.can_id, index, self.read_param(index))]
        else:
            return []
        return [self._feedback(host)]

    # The motion frame carries the torque in data area 2, so it has no host id; replies go
    # to the host that last sent a frame carrying one (0xFD, the usual host id, until then).
    _motion_host = 0xFD

    def read_param(self, index: int) -> float:
        """Return a modelled parameter's value (live values for the read-only ones)."""
        if index == IDX['mechPos']:
            return self.position
        if index == IDX['mechVel']:
            return self.velocity
        if index == IDX['VBUS']:
            return self.vbus
        if index == IDX['iqf']:
            return self.torque / self.model.kt
        return self.params[index]

    # --- physics -----------------------------------------------------------------------

    def _check_faults(self, now: float) -> bool:
        """Latch the faults the motor detects itself; True when new bits appeared."""
        new = 0
        if self.vbus < UNDERVOLTAGE_V:
            new |= proto.FAULT_UNDER_VOLTAGE
        if self.vbus > OVERVOLTAGE_V:
            new |= proto.FAULT_OVER_VOLTAGE
        if self.temperature > OVERTEMP_C:
            new |= proto.FAULT_OVER_TEMPERATURE
        return self.latch(new)

    def latch(self, bits: int) -> bool:
        """
        Latch fault bits (detected or injected); a fault drops the motor to reset.

        Newly latched bits make the motor send a fault report (type 21) at its next step(),
        never as a reply: it carries the fault word captured here (every bit latched by then).
        Bits cleared before that step are left out of it, and a report with none left is
        dropped. While any fault stays latched, step() repeats the report with the fault word
        every FAULT_REPORT_PERIOD_S. A hung motor sends none; it reports when it answers again.
        Returns True if any bit was new.
        """
        added = bits & ~self.faults
        self.faults |= bits
        if added:
            self.run_state = RUN_STATE_RESET
            self._calibration_end = None
            self._fault_report = self.faults
        return bool(added)

    def _clear(self, bits: int) -> None:
        """Clear latched fault bits; no report is sent for a bit that is no longer latched."""
        self.faults &= ~bits
        if self._fault_report is not None:
            self._fault_report &= self.faults
            if self._fault_report == 0:
                self._fault_report = None
        if self.faults == 0:
            self._fault_reported_at = None

    def _fault_report_frame(self, host_id: int, now: float) -> Optional[proto.CanFrame]:
        """Return the type-21 report due at `now` (see latch()), or None."""
        if self.hung or self.faults == 0:
            return None
        word = self._fault_report
        if word is None:
            last = self._fault_reported_at
            if last is not None and now - last < FAULT_REPORT_PERIOD_S:
                return None
            word = self.faults
        self._fault_report = None
        self._fault_reported_at = now
        return proto.encode_fault(host_id, self.can_id, word)

    def calibrate(self, now: float) -> bool:
        """
        Run the encoder calibration: run_state 1 for CALIBRATION_S, then reset.

        A motor with a latched fault cannot calibrate; a finished calibration clears the
        encoder-uncalibrated fault bit.
        """
        if self.faults & ~proto.FAULT_ENCODER_UNCALIBRATED:
            return False
        self.run_state = RUN_STATE_CALIBRATION
        self._calibration_end = now + CALIBRATION_S
        return True

    def _control_law(self) -> Tuple[float, float, float, float]:
        """
        Torque as an affine function of the state, tau = c0 + cp*p + cv*v, and its limit.

        Keeping it affine lets step() integrate the stiff part implicitly, so any gain the
        protocol can carry (kp up to 5000) is stable at a 2 ms step.
        """
        m = self.model
        prm = self.params
        limit = min(prm[IDX['limit_torque']], m.t_max)
        mode = int(prm[IDX['run_mode']])
        kt = m.kt
        limit_cur = prm[IDX['limit_cur']]
        if mode == RUN_MODE_MOTION:
            p_des, v_des, kp, kd, t_ff = self.motion
            return t_ff + kp * p_des + kd * v_des, -kp, -kd, limit
        limit = min(limit, kt * limit_cur)
        spd_kp = prm[IDX['spd_kp']]
        if mode == RUN_MODE_CURRENT:
            iq = max(-limit_cur, min(limit_cur, prm[IDX['iq_ref']]))
            return kt * iq, 0.0, 0.0, limit
        if mode == RUN_MODE_VELOCITY:
            v_ref = max(-m.v_max, min(m.v_max, prm[IDX['spd_ref']]))
            return kt * (spd_kp * v_ref + self._integral), 0.0, -kt * spd_kp, limit
        if mode in (RUN_MODE_PP, RUN_MODE_CSP):
            lim_v = prm[IDX['limit_spd']]
            loc_kp = prm[IDX['loc_kp']]
            v_cmd = loc_kp * (prm[IDX['loc_ref']] - self.position)
            if abs(v_cmd) > lim_v:     # saturated outer loop: constant velocity target
                v_sat = math.copysign(lim_v, v_cmd)
                return kt * (spd_kp * v_sat + self._integral), 0.0, -kt * spd_kp, limit
            return (kt * (spd_kp * loc_kp * prm[IDX['loc_ref']] + self._integral),
                    -kt * spd_kp * loc_kp, -kt * spd_kp, limit)
        return 0.0, 0.0, 0.0, 0.0           # set-zero mode: no torque

    def _velocity_target(self) -> Optional[float]:
        prm = self.params
        mode = int(prm[IDX['run_mode']])
        if mode == RUN_MODE_VELOCITY:
            return prm[IDX['spd_ref']]
        if mode in (RUN_MODE_PP, RUN_MODE_CSP):
            lim_v = prm[IDX['limit_spd']]
            v = prm[IDX['loc_kp']] * (prm[IDX['loc_ref']] - self.position)
            return max(-lim_v, min(lim_v, v))
        return None

    def step(self, dt: float, now: float,
             host_id: Optional[int] = None) -> List[proto.CanFrame]:
        """Advance the motor by dt seconds; return unsolicited frames (fault reports, latch())."""
        out: List[proto.CanFrame] = []
        if host_id is None:
            host_id = self._motion_host
        if self._calibration_end is not None and now >= self._calibration_end:
            self._calibration_end = None
            self._clear(proto.FAULT_ENCODER_UNCALIBRATED)
            self.run_state = RUN_STATE_RESET
        if dt <= 0.0:
            return out
        timeout_ticks = self.params[IDX['canTimeout']]
        if (timeout_ticks > 0 and self.run_state == RUN_STATE_MOTOR and self._last_rx is not None
                and now - self._last_rx > timeout_ticks / CAN_TIMEOUT_TICKS_PER_S):
            self.run_state = RUN_STATE_RESET      # CAN watchdog: stop driving
        n = max(1, int(math.ceil(dt / MAX_SUBSTEP_S)))
        h = dt / n
        for _ in range(n):
            self._check_faults(now)
            report = self._fault_report_frame(host_id, now)
            if report is not None:
                out.append(report)
            self._substep(h)
        return out

    def _substep(self, h: float) -> None:
        m = self.model
        j, b = m.inertia, m.damping
        p, v = self.position, self.velocity
        if self.run_state == RUN_STATE_MOTOR:
            c0, cp, cv, limit = self._control_law()
        else:
            c0 = cp = cv = limit = 0.0
        load = self.load_torque
        # Implicit Euler on the affine part:
        #   v1 = v + h/J * (c0 + cp*(p + h*v1) + cv*v1 - b*v1 + load)
        denom = 1.0 - h / j * (cp * h + cv - b)
        v1 = (v + h / j * (c0 + cp * p + load)) / denom
        tau = c0 + cp * (p + h * v1) + cv * v1
        if abs(tau) > limit:
            tau = math.copysign(limit, tau) if limit > 0.0 else 0.0
            v1 = (v + h / j * (tau + load)) / (1.0 + h * b / j)
        self.velocity = v1
        self.position = p + h * v1
        self.torque = tau
        # Velocity-loop integrator (modes 1, 2, 5) with anti-windup at limit_cur.
        v_target = self._velocity_target() if self.run_state == RUN_STATE_MOTOR else None
        if v_target is not None:
            lim_i = self.params[IDX['limit_cur']]
            self._integral += self.params[IDX['spd_ki']] * (v_target - v1) * h
            self._integral = max(-lim_i, min(lim_i, self._integral))
        # Copper losses heat the winding with the square of the torque; cooling to ambient.
        heat = self.heat_gain * HEAT_RATE_C_PER_S * (tau / m.t_max) ** 2
        cooling = (self.temperature - self.ambient) / THERMAL_TIME_CONSTANT_S
        self.temperature += h * (heat - cooling)
