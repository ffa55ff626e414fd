# SPDX-License-Identifier: Apache-2.0
"""
RobStride private CAN protocol: 29-bit extended frames, encoded and decoded in plain Python.

Identifier layout: bits 28..24 communication type, bits 23..8 "data area 2" (its meaning
depends on the type), bits 7..0 destination address. Host->motor frames put the host id in
bits 15..8 and the motor id in bits 7..0; motor->host frames put the motor id in bits 15..8 and
the host id in bits 7..0. Scaled 16-bit fields are big-endian (high byte first); parameter
indices and values are little-endian.

Only the frames the hardware interface and the simulator exchange are implemented.
"""
from dataclasses import dataclass
import enum
import struct
from typing import Optional, Tuple

from .models import MotorModel, P_MAX
from .params import PARAMS


class CommType(enum.IntEnum):
    GET_ID = 0           # host->motor: host id in data area 2; reply: 64-bit MCU id
    MOTION = 1           # host->motor: torque in data area 2; angle, velocity, kp, kd in data
    FEEDBACK = 2         # motor->host: mode + 6 fault flags in data area 2; state in data
    ENABLE = 3
    STOP = 4             # data[0] == 1: also clear latched faults
    SET_ZERO = 6         # data[0] == 1: current position becomes mechanical zero
    PARAM_READ = 17      # reply: status in bits 23..16 (0 success, 1 failure)
    PARAM_WRITE = 18
    FAULT = 21           # motor->host: fault word (data 0..3), warning word (data 4..7)


#: decode_motion's fields: position, velocity, kp, kd, torque (motor units).
MotionFields = Tuple[float, float, float, float, float]
#: decode_feedback_fields: Feedback's fields in its order.
FeedbackFields = Tuple[int, int, int, float, float, float, float]


class ProtocolError(ValueError):
    """A frame that does not decode (wrong type, length or field)."""


@dataclass(frozen=True)
class CanFrame:
    arb_id: int          # 29-bit extended identifier
    data: bytes = bytes(8)

    @property
    def comm_type(self) -> int:
        """Return the communication type, identifier bits 28..24."""
        return (self.arb_id >> 24) & 0x1F

    @property
    def area2(self) -> int:
        """Return data area 2, identifier bits 23..8."""
        return (self.arb_id >> 8) & 0xFFFF

    @property
    def dest(self) -> int:
        """Return the destination address, identifier bits 7..0."""
        return self.arb_id & 0xFF


# Fault word bits (communication type 21 and RobstrideState.fault_bits).
FAULT_OVER_TEMPERATURE = 1 << 0
FAULT_DRIVER_CHIP = 1 << 1
FAULT_UNDER_VOLTAGE = 1 << 2
FAULT_OVER_VOLTAGE = 1 << 3
FAULT_PHASE_B_OVER_CURRENT = 1 << 4
FAULT_PHASE_C_OVER_CURRENT = 1 << 5
FAULT_ENCODER_UNCALIBRATED = 1 << 7
FAULT_HARDWARE_ID = 1 << 8
FAULT_POSITION_INIT = 1 << 9
FAULT_STALL_OVERLOAD = 1 << 14
FAULT_PHASE_A_OVER_CURRENT = 1 << 16
#: Every bit a fault word defines (the others are reserved: no motor reports them).
FAULT_DEFINED_BITS = (FAULT_OVER_TEMPERATURE | FAULT_DRIVER_CHIP | FAULT_UNDER_VOLTAGE
                      | FAULT_OVER_VOLTAGE | FAULT_PHASE_B_OVER_CURRENT
                      | FAULT_PHASE_C_OVER_CURRENT | FAULT_ENCODER_UNCALIBRATED
                      | FAULT_HARDWARE_ID | FAULT_POSITION_INIT | FAULT_STALL_OVERLOAD
                      | FAULT_PHASE_A_OVER_CURRENT)

# The feedback frame (type 2) carries only six summary flags in identifier bits 16..21.
# Map each flag to the fault-word bit(s) it summarises (both directions use this table).
_FEEDBACK_FLAGS = (
    (0, FAULT_UNDER_VOLTAGE),
    (1, FAULT_PHASE_A_OVER_CURRENT | FAULT_PHASE_B_OVER_CURRENT | FAULT_PHASE_C_OVER_CURRENT),
    (2, FAULT_OVER_TEMPERATURE),
    (3, FAULT_POSITION_INIT),           # magnetic encoder fault
    (4, FAULT_STALL_OVERLOAD | FAULT_DRIVER_CHIP | FAULT_OVER_VOLTAGE | FAULT_HARDWARE_ID),
    (5, FAULT_ENCODER_UNCALIBRATED),
)


def fault_word_to_flags(word: int) -> int:
    """Six feedback summary flags of a fault word."""
    if not word:
        return 0                      # the usual case, every cycle: no fault
    return sum(1 << bit for bit, mask in _FEEDBACK_FLAGS if word & mask)


def flags_to_fault_word(flags: int) -> int:
    """Best-effort fault word from the six feedback flags (a type-21 frame is exact)."""
    word = 0
    for bit, mask in _FEEDBACK_FLAGS:
        if flags & (1 << bit):
            word |= mask & -mask      # lowest bit of the group stands for the group
    return word


def float_to_uint(x: float, lo: float, hi: float, bits: int = 16) -> int:
    """Linear map of [lo, hi] onto 0..2**bits-1, saturating outside the range."""
    span = (1 << bits) - 1
    x = min(max(x, lo), hi)
    return int(round((x - lo) * span / (hi - lo)))


def uint_to_float(u: int, lo: float, hi: float, bits: int = 16) -> float:
    """Inverse of float_to_uint."""
    return lo + u * (hi - lo) / ((1 << bits) - 1)


# Constants of the 16-bit scaling, for the codecs below that write float_to_uint and
# uint_to_float out (their arithmetic, term for term, so the bits are the same).
_SPAN16 = (1 << 16) - 1
_P_LO = -P_MAX
_P_RANGE = P_MAX - _P_LO
_PACK_HHHH = struct.Struct('>HHHH').pack
_UNPACK_HHHH = struct.Struct('>HHHH').unpack
_PACK_HHHh = struct.Struct('>HHHh').pack
_UNPACK_HHHh = struct.Struct('>HHHh').unpack


def _arb(comm_type: int, area2: int, dest: int) -> int:
    return ((comm_type & 0x1F) << 24) | ((area2 & 0xFFFF) << 8) | (dest & 0xFF)


_MOTION_BITS = (CommType.MOTION & 0x1F) << 24
_FEEDBACK_BITS = (CommType.FEEDBACK & 0x1F) << 24


# --- host -> motor -----------------------------------------------------------------------

def encode_enable(host_id: int, motor_id: int) -> CanFrame:
    """Enable (type 3): the motor enters run_state 2 unless a fault is latched."""
    return CanFrame(_arb(CommType.ENABLE, host_id, motor_id))


def encode_stop(host_id: int, motor_id: int, clear_fault: bool = False) -> CanFrame:
    """Stop (type 4); clear_fault sets data[0] = 1 to clear latched faults."""
    return CanFrame(_arb(CommType.STOP, host_id, motor_id),
                    bytes([1 if clear_fault else 0]) + bytes(7))


def encode_set_zero(host_id: int, motor_id: int) -> CanFrame:
    """Set-zero (type 6, data[0] = 1): the current position becomes zero."""
    return CanFrame(_arb(CommType.SET_ZERO, host_id, motor_id), bytes([1]) + bytes(7))


def encode_motion(model: MotorModel, motor_id: int, position: float, velocity: float,
                  kp: float, kd: float, torque: float) -> CanFrame:
    """
    Encode a motion-control frame.

    Every field saturates at the model's range (as the 16-bit scaling does on the real bus).
    """
    # float_to_uint written out per field (the same arithmetic, so the same bits): this runs
    # once per motor every cycle, and the calls cost more than the scaling.
    v, t, kp_max, kd_max = model.v_max, model.t_max, model.kp_max, model.kd_max
    lo = -t
    x = lo if torque < lo else (t if torque > t else torque)
    t_u = int(round((x - lo) * _SPAN16 / (t - lo)))
    x = _P_LO if position < _P_LO else (P_MAX if position > P_MAX else position)
    p_u = int(round((x - _P_LO) * _SPAN16 / _P_RANGE))
    lo = -v
    x = lo if velocity < lo else (v if velocity > v else velocity)
    v_u = int(round((x - lo) * _SPAN16 / (v - lo)))
    x = 0.0 if kp < 0.0 else (kp_max if kp > kp_max else kp)
    kp_u = int(round(x * _SPAN16 / kp_max))
    x = 0.0 if kd < 0.0 else (kd_max if kd > kd_max else kd)
    kd_u = int(round(x * _SPAN16 / kd_max))
    return CanFrame((_MOTION_BITS | ((t_u & 0xFFFF) << 8) | (motor_id & 0xFF)),
                    _PACK_HHHH(p_u, v_u, kp_u, kd_u))


def decode_motion(model: MotorModel, frame: CanFrame) -> MotionFields:
    """Decode a motion-control frame to (position, velocity, kp, kd, torque), motor units."""
    if frame.comm_type != CommType.MOTION or len(frame.data) != 8:
        raise ProtocolError('not a motion-control frame')
    p, v, kp, kd = _UNPACK_HHHH(frame.data)
    # uint_to_float written out per field (same arithmetic), as in encode_motion
    v_max, t_max = model.v_max, model.t_max
    return (_P_LO + p * _P_RANGE / _SPAN16,
            -v_max + v * (v_max - -v_max) / _SPAN16,
            0.0 + kp * model.kp_max / _SPAN16,
            0.0 + kd * model.kd_max / _SPAN16,
            -t_max + ((frame.arb_id >> 8) & 0xFFFF) * (t_max - -t_max) / _SPAN16)


def _param_payload(index: int, value: float) -> bytes:
    spec = PARAMS.get(index)
    kind = spec.kind if spec else 'f32'
    if kind == 'u8':
        tail = struct.pack('<B3x', int(value))
    elif kind == 'u32':
        tail = struct.pack('<I', int(value))
    else:
        tail = struct.pack('<f', float(value))
    return struct.pack('<HH', index, 0) + tail


def _param_value(index: int, data: bytes) -> float:
    spec = PARAMS.get(index)
    kind = spec.kind if spec else 'f32'
    if kind == 'u8':
        return float(data[4])
    if kind == 'u32':
        return float(struct.unpack_from('<I', data, 4)[0])
    value: float = struct.unpack_from('<f', data, 4)[0]
    return value


def encode_param_write(host_id: int, motor_id: int, index: int, value: float) -> CanFrame:
    """Parameter write (type 18) of one index; the motor answers with feedback."""
    return CanFrame(_arb(CommType.PARAM_WRITE, host_id, motor_id), _param_payload(index, value))


def encode_param_read(host_id: int, motor_id: int, index: int) -> CanFrame:
    """Parameter read (type 17) of one index."""
    return CanFrame(_arb(CommType.PARAM_READ, host_id, motor_id),
                    struct.pack('<HH', index, 0) + bytes(4))


def decode_param(frame: CanFrame) -> Tuple[int, float]:
    """Parameter read/write payload -> (index, value)."""
    if frame.comm_type not in (CommType.PARAM_READ, CommType.PARAM_WRITE) \
            or len(frame.data) != 8:
        raise ProtocolError('not a parameter frame')
    index = struct.unpack_from('<H', frame.data, 0)[0]
    return index, _param_value(index, frame.data)


def host_of(frame: CanFrame) -> int:
    """Host id of a host->motor frame (bits 15..8)."""
    return frame.area2 & 0xFF


# --- motor -> host -----------------------------------------------------------------------

@dataclass(frozen=True)
class Feedback:
    motor_id: int
    run_state: int        # 0 reset, 1 calibration, 2 motor
    fault_flags: int      # the six summary flags
    position: float
    velocity: float
    torque: float
    temperature: float


def encode_feedback(model: MotorModel, host_id: int, motor_id: int, run_state: int,
                    fault_word: int, position: float, velocity: float, torque: float,
                    temperature: float) -> CanFrame:
    """Encode a feedback frame (type 2) as a motor sends it."""
    area2 = ((run_state & 0x3) << 14) | (fault_word_to_flags(fault_word) << 8) | motor_id
    temp = max(-3276.8, min(3276.7, temperature))
    # float_to_uint written out per field (same arithmetic), as in encode_motion
    v, t = model.v_max, model.t_max
    x = _P_LO if position < _P_LO else (P_MAX if position > P_MAX else position)
    p_u = int(round((x - _P_LO) * _SPAN16 / _P_RANGE))
    lo = -v
    x = lo if velocity < lo else (v if velocity > v else velocity)
    v_u = int(round((x - lo) * _SPAN16 / (v - lo)))
    lo = -t
    x = lo if torque < lo else (t if torque > t else torque)
    t_u = int(round((x - lo) * _SPAN16 / (t - lo)))
    return CanFrame(_FEEDBACK_BITS | ((area2 & 0xFFFF) << 8) | (host_id & 0xFF),
                    _PACK_HHHh(p_u, v_u, t_u, int(round(temp * 10.0))))


def decode_feedback(model: MotorModel, frame: CanFrame) -> Feedback:
    """Decode a feedback frame with the ranges of the sending motor's model."""
    return Feedback(*decode_feedback_fields(model, frame))


def decode_feedback_fields(model: MotorModel, frame: CanFrame) -> FeedbackFields:
    """
    Return decode_feedback's fields as a tuple, in Feedback's order.

    The 500 Hz read() path uses the tuple: building the frozen Feedback costs more than the
    decoding itself.
    """
    if frame.comm_type != CommType.FEEDBACK or len(frame.data) != 8:
        raise ProtocolError('not a feedback frame')
    p, v, t, temp = _UNPACK_HHHh(frame.data)
    area2 = frame.area2
    # uint_to_float written out per field (same arithmetic), as in encode_motion
    v_max, t_max = model.v_max, model.t_max
    return (area2 & 0xFF, (area2 >> 14) & 0x3, (area2 >> 8) & 0x3F,
            _P_LO + p * _P_RANGE / _SPAN16,
            -v_max + v * (v_max - -v_max) / _SPAN16,
            -t_max + t * (t_max - -t_max) / _SPAN16,
            temp / 10.0)


def feedback_motor_id(frame: CanFrame) -> int:
    """Source motor of a motor->host frame (bits 15..8), without needing its model."""
    return frame.area2 & 0xFF


def encode_fault(host_id: int, motor_id: int, fault_word: int,
                 warning_word: int = 0) -> CanFrame:
    """Fault report (type 21): fault word in bytes 0..3, warning word in 4..7 (LE)."""
    return CanFrame(_arb(CommType.FAULT, motor_id, host_id),
                    struct.pack('<II', fault_word & 0xFFFFFFFF, warning_word & 0xFFFFFFFF))


def decode_fault(frame: CanFrame) -> int:
    """Fault word of a fault report."""
    if frame.comm_type != CommType.FAULT or len(frame.data) != 8:
        raise ProtocolError('not a fault frame')
    word: int = struct.unpack_from('<I', frame.data, 0)[0]
    return word


PARAM_READ_OK = 0
PARAM_READ_FAILED = 1


def encode_param_reply(host_id: int, motor_id: int, index: int, value: float = 0.0,
                       status: int = PARAM_READ_OK) -> CanFrame:
    """Reply to a parameter read; a failed read carries status 1 and a zero value."""
    data = (_param_payload(index, value) if status == PARAM_READ_OK
            else struct.pack('<HH', index, 0) + bytes(4))
    return CanFrame(_arb(CommType.PARAM_READ, (status & 0xFF) << 8 | motor_id, host_id), data)


def decode_param_reply(frame: CanFrame) -> Tuple[int, int, Optional[float]]:
    """Parameter read reply -> (motor_id, index, value or None when the read failed)."""
    if frame.comm_type != CommType.PARAM_READ or len(frame.data) != 8:
        raise ProtocolError('not a parameter read reply')
    index = struct.unpack_from('<H', frame.data, 0)[0]
    if (frame.area2 >> 8) != PARAM_READ_OK:
        return frame.area2 & 0xFF, index, None
    return frame.area2 & 0xFF, index, _param_value(index, frame.data)


# --- device id (communication type 0) ------------------------------------------------------

DEVICE_ID_REPLY_DEST = 0xFE


def encode_get_id(host_id: int, motor_id: int) -> CanFrame:
    """Ask motor_id for its 64-bit MCU id (a scan sends this to every id)."""
    return CanFrame(_arb(CommType.GET_ID, host_id, motor_id))


def encode_device_id_reply(motor_id: int, mcu_id: bytes) -> CanFrame:
    """Reply to a device-id request: motor id in bits 15..8, 0xFE in bits 7..0."""
    if len(mcu_id) != 8:
        raise ValueError('the MCU id has 8 bytes')
    return CanFrame(_arb(CommType.GET_ID, motor_id, DEVICE_ID_REPLY_DEST), bytes(mcu_id))


def decode_device_id_reply(frame: CanFrame) -> Tuple[int, bytes]:
    """Device-id reply -> (motor_id, 8-byte MCU id)."""
    if frame.comm_type != CommType.GET_ID or frame.dest != DEVICE_ID_REPLY_DEST \
            or len(frame.data) != 8:
        raise ProtocolError('not a device-id reply')
    return frame.area2 & 0xFF, bytes(frame.data)
