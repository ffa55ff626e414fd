# SPDX-License-Identifier: Apache-2.0
"""
rt/lowstate and rt/handstate as serialized bytes, written without cyclonedds' serializer.

A profile of the 500 Hz loop put most of its time in the cyclonedds Python serializer
(building a LowState_ of 19 MotorState_ objects, then `serialize`, field by field in
Python). Both messages have a fixed layout once the battery status text is known, so they
are packed with one `struct.Struct` each: `ros_wire.FixedLayout` (the workspace's compiler
of fixed-layout CDR messages) bakes in the constant parts. The vendor types are `@final`,
so the wire format is plain XCDR1 little endian, the same rules as ROS 2's CDR (see
ros_wire.cdr).

`write_serialized` hands the bytes to the writer the way `DataWriter.write` hands over its
own serialization (`ddspy_write`, padded to a multiple of 4). test/test_state_cdr.py checks
the bytes against `DataWriter.write`'s serialization (equal, padding included) and against
rclpy's serialization of the ROS `pnd_adam` types (equal but for the padding, which Fast
DDS leaves uninitialised), for model states and for hypothesis values, and round trip.
"""
from itertools import chain
import struct
from typing import Any, Optional, Sequence, TYPE_CHECKING

from cyclonedds._clayer import ddspy_write
from cyclonedds.core import DDSException
from pnd_adam_description.joints import NUM_JOINTS
from ros_wire import FixedLayout, HEADER_SIZE

from .vendor_idl import HAND_DOF, WIRELESS_REMOTE_LEN

if TYPE_CHECKING:
    from .model import AdamModel

# MotorState_: mode u8, q, dq, ddq, tau_est f32, state, reserve u32.
MOTOR_FIELDS = 7


def lowstate_layout(status: str, n_motors: int = NUM_JOINTS) -> Any:
    """
    Compile LowState_ with `n_motors` motors and this battery status text.

    pack(mode_pr, tick, quaternion[4], gyroscope[3], accelerometer[3], ypr[3], temperature,
    n_motors x (mode, q, dq, ddq, tau_est, state, reserve), wireless_remote[40],
    timestamp_ms, voltage, current, power, wh_accumulated, reserve), flattened.
    """
    lay = (FixedLayout().var('B').var('I')
           .var('f', 13).var('h')            # IMUState_
           .u32(n_motors))
    for _ in range(n_motors):
        lay.var('B').var('f', 4).var('I', 2)
    return (lay.var('h', WIRELESS_REMOTE_LEN)
            .var('q').var('f', 4).string(status)   # BatteryData_
            .var('I').build())


def handstate_layout() -> Any:
    """Compile HandState_: pack(position[12], reserve)."""
    return FixedLayout().var('I', HAND_DOF).var('I').build()


# LowState_ from mode_pr to the last MotorState_ (after the encapsulation header): mode_pr,
# tick, the IMU's 13 floats and temperature, the motor_state length, then per motor mode,
# q, dq, ddq, tau_est and state = reserve = 0 (written as zero bytes).
_HEAD = '<B3xI13fh2xI'
_MOTOR = 'B3x4f8x'
_MOTORS_AT = 68                       # offset of the first MotorState_, 28 bytes each
_MOTOR_SIZE = 28
# BatteryData_'s variable fields: timestamp_ms (int64, 8-aligned), voltage, current, power,
# wh_accumulated.
_BATTERY = struct.Struct('<q4f')


class _LowStateFrame:
    """
    One LowState_ message as a bytearray packed in place, for one status text and size.

    The constant parts (wireless_remote, the status text, the reserve, padding) are packed
    once by the compiled layout; each message rewrites the rest with two precompiled Structs
    (pack_into), from plain floats.
    """

    def __init__(self, status: str, n_motors: int, remote: Sequence[int]) -> None:
        self.status, self.n, self.remote = status, n_motors, remote
        layout = lowstate_layout(status, n_motors)
        values: list[int] = [0] * (2 + 13 + 1 + MOTOR_FIELDS * n_motors)
        values += [int(r) for r in remote]
        values += [0] * 6
        self.buf = bytearray(layout.pack(*values))
        self.head = struct.Struct(_HEAD + _MOTOR * n_motors)
        end = _MOTORS_AT + _MOTOR_SIZE * n_motors + 2 * WIRELESS_REMOTE_LEN
        self.battery_at = HEADER_SIZE + ((end + 7) & ~7)


class StateEncoder:
    """LowState_/HandState_ bytes of an AdamModel, as `lowstate_from_model` would give."""

    def __init__(self) -> None:
        """Start with no layout compiled (one is compiled per battery status text)."""
        self._lowstate: dict[tuple[str, int], Any] = {}  # (status text, motors) -> layout
        self._frame: Optional[_LowStateFrame] = None          # the last _LowStateFrame
        self.hand_layout = handstate_layout()
        # (model.hand's bytes, their HandState_ bytes)
        self._hand: tuple[Optional[bytes], bytes] = (None, b'')

    def lowstate_layout(self, status: str, n_motors: int = NUM_JOINTS) -> Any:
        """Return the compiled LowState_ layout for this status text and motor count."""
        layout = self._lowstate.get((status, n_motors))
        if layout is None:
            layout = self._lowstate[status, n_motors] = lowstate_layout(status, n_motors)
        return layout

    def lowstate(self, model: 'AdamModel') -> bytes:
        """Return the LowState_ bytes of the model's current state."""
        q, dq, ddq, tau = model.joint_lists()
        n = len(q)
        status = model.battery_status()
        remote = model.cfg.wireless_remote   # configuration: the same object for a model
        frame = self._frame
        if frame is None or frame.status != status or frame.n != n or frame.remote is not remote:
            frame = self._frame = _LowStateFrame(status, n, remote)
        buf = frame.buf
        quat, gyro, acc, ypr, temp = model.imu()
        frame.head.pack_into(buf, HEADER_SIZE, model.mode_pr, model.tick, *quat, *gyro, *acc,
                             *ypr, temp, n,
                             *chain.from_iterable(zip(model.motor_modes_now(), q, dq, ddq,
                                                      tau)))
        _BATTERY.pack_into(buf, frame.battery_at, model.timestamp_ms(), model.voltage,
                           model.current, model.power, model.wh_accumulated)
        return bytes(buf)

    def handstate(self, model: 'AdamModel') -> bytes:
        """Return the HandState_ bytes (positions rounded to integers)."""
        key = model.hand.tobytes()
        if key != self._hand[0]:    # the hands only move after a HandCmd
            data = self.hand_layout.pack(*[int(round(p)) for p in model.hand.tolist()], 0)
            self._hand = (key, data)
        return self._hand[1]


def write_serialized(writer: Any, data: bytes) -> None:
    """Write serialized bytes of the writer's type, as DataWriter.write writes its own."""
    if len(data) % 4:
        data = data.ljust((len(data) + 3) & ~3, b'\0')
    ret = ddspy_write(writer._ref, data)
    if ret < 0:
        raise DDSException(ret, f'Occurred while writing sample in {writer!r}')
