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
from cyclonedds._clayer import ddspy_write
from cyclonedds.core import DDSException
from pnd_adam_description.joints import NUM_JOINTS
from ros_wire import FixedLayout

from .vendor_idl import HAND_DOF, WIRELESS_REMOTE_LEN

# MotorState_: mode u8, q, dq, ddq, tau_est f32, state, reserve u32.
MOTOR_FIELDS = 7


def lowstate_layout(status, n_motors=NUM_JOINTS):
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


def handstate_layout():
    """Compile HandState_: pack(position[12], reserve)."""
    return FixedLayout().var('I', HAND_DOF).var('I').build()


class StateEncoder:
    """LowState_/HandState_ bytes of an AdamModel, as `lowstate_from_model` would give."""

    def __init__(self):
        self._lowstate = {}          # (battery status text, motors) -> layout
        self.hand_layout = handstate_layout()

    def lowstate_layout(self, status, n_motors=NUM_JOINTS):
        """Return the compiled LowState_ layout for this status text and motor count."""
        layout = self._lowstate.get((status, n_motors))
        if layout is None:
            layout = self._lowstate[status, n_motors] = lowstate_layout(status, n_motors)
        return layout

    def lowstate(self, model):
        """Return the LowState_ bytes of the model's current state."""
        quat, gyro, acc, ypr, temp = model.imu()
        values = [model.mode_pr, model.tick, *quat, *gyro, *acc, *ypr, temp]
        q = model.q.tolist()
        for mode, q_i, dq, ddq, tau in zip(model.motor_modes(), q, model.dq.tolist(),
                                           model.ddq.tolist(), model.tau.tolist()):
            values += (mode, q_i, dq, ddq, tau, 0, 0)
        values += model.wireless_remote()
        values += (model.timestamp_ms(), model.voltage, model.current, model.power,
                   model.wh_accumulated)
        values.append(0)
        return self.lowstate_layout(model.battery_status(), len(q)).pack(*values)

    def handstate(self, model):
        """Return the HandState_ bytes (positions rounded to integers)."""
        return self.hand_layout.pack(*[int(round(p)) for p in model.hand], 0)


def write_serialized(writer, data):
    """Write serialized bytes of the writer's type, as DataWriter.write writes its own."""
    if len(data) % 4:
        data = data.ljust((len(data) + 3) & ~3, b'\0')
    ret = ddspy_write(writer._ref, data)
    if ret < 0:
        raise DDSException(ret, f'Occurred while writing sample in {writer!r}')
