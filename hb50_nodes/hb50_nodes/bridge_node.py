# SPDX-License-Identifier: Apache-2.0
"""bridge_node: the simulated HB50 hardware behind the vendor's topics."""

from array import array
import time

from hb50_commons.msg import BridgeData, BridgeState, JointCommand
import numpy as np

from . import qos
from .bridge_core import BridgeCore
from .loop_node import LoopNode
from .params import BRIDGE, declare
from .ros_common import run, set_stamp, StatusReporter


class BridgeNode(LoopNode):

    def __init__(self, **kwargs):
        super().__init__('bridge_node', **kwargs)
        loop, bridge, sim, geo, limits, arb = declare(self, BRIDGE)
        self.setup_loop(loop)
        self.core = BridgeCore(bridge, sim, geo, limits, arb.make(), time.monotonic())
        self.data_pub = self.create_publisher(BridgeData, qos.BRIDGE_DATA, qos.MAB_RT)
        self.state_pub = self.create_publisher(BridgeState, qos.BRIDGE_STATE, qos.MAB_RT)
        self.state_slow_pub = self.create_publisher(
            BridgeState, qos.BRIDGE_STATE_10HZ, qos.RELIABLE)
        self.reporter = StatusReporter(self, loop.heartbeat_rate)
        self.create_subscription(JointCommand, qos.JOINT_COMMAND, self.on_command,
                                 qos.JOINT_COMMAND_READER)
        # The published messages are built once and refilled in place every tick: the joint
        # arrays are array.array buffers (what rclpy converts fastest) written through numpy
        # views (the setter copies, so the views are taken on the message's own arrays).
        n = len(bridge.joint_names)
        self.data = BridgeData()
        self.data.header.frame_id = 'imu'
        self.data.joint_name = list(bridge.joint_names)
        self._views = []
        for field, code, dtype in (('joint_position', 'f', np.float32),
                                   ('joint_velocity', 'f', np.float32),
                                   ('joint_effort', 'f', np.float32),
                                   ('joint_temperature', 'B', np.uint8),
                                   ('joint_status', 'H', np.uint16)):
            setattr(self.data, field, array(code, bytes(n * np.dtype(dtype).itemsize)))
            self._views.append(np.frombuffer(getattr(self.data, field), dtype))
        self._temperature = np.empty(n)
        self.state = BridgeState()

    def on_command(self, msg):
        # Validation outside the lock: the loop thread never waits for it.
        checked = self.core.check(msg)
        with self.lock:
            events = self.core.accept(msg, checked, time.monotonic())
        for level, text in events:
            self.reporter.report(level, text)

    def tick(self, now):
        with self.lock:
            # Stamped when the tick samples the hardware, before its computation, so the
            # stamp period does not carry the step's run-time variations.
            stamp = time.time_ns()
            events = self.core.step(now, self.period)
            self._fill(stamp)
        self.data_pub.publish(self.data)
        self.state_pub.publish(self.state)
        if self.slow_sample_due():
            self.state_slow_pub.publish(self.state)
        for level, text in events:
            self.reporter.report(level, text)

    def _fill(self, stamp_ns):
        sim = self.core.sim
        d = self.data
        set_stamp(d.header.stamp, stamp_ns)
        quat, gyro, accel = sim.imu()
        o = d.orientation
        o.x, o.y, o.z, o.w = quat
        v = d.angular_velocity
        v.x, v.y, v.z = gyro
        a = d.linear_acceleration
        a.x, a.y, a.z = accel
        pos, vel, eff, temp, status = self._views
        pos[:] = sim.q
        vel[:] = sim.dq
        eff[:] = sim.tau
        np.clip(np.rint(sim.temperature, out=self._temperature), 0, 255, out=self._temperature)
        temp[:] = self._temperature
        status[:] = sim.status
        s = self.state
        s.battery = float(sim.battery)
        s.bus_v = float(sim.bus_v)
        s.bus_i = float(sim.bus_i)
        s.bus_p = float(sim.bus_p)
        s.bus_pt = float(sim.bus_energy_kwh)
        s.legs_v = float(sim.bus_v) if self.core.drives_enabled else 0.0
        s.charger_v = 0.0
        ambient = sim.cfg.ambient_temperature
        s.bridge_t = float(ambient + 10.0 + 0.02 * sim.bus_p)
        s.ext1_t = float(ambient + 5.0)
        s.ext2_t = float(sim.temperature.mean())
        s.drives_enabled = self.core.drives_enabled
        s.status = self.core.status_strings()
        s.up_time = int(time.monotonic() - self.core.start)


def main(args=None):
    """Run bridge_node until SIGINT/SIGTERM."""
    return run([BridgeNode], args)


if __name__ == '__main__':
    main()
