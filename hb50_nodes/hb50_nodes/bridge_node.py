"""bridge_node: the simulated HB50 hardware behind the vendor's topics."""

import time
from array import array

import numpy as np
from hb50_commons.msg import BridgeData, BridgeState, JointCommand

from . import qos
from .bridge_core import BridgeCore
from .loop_node import LoopNode
from .params import BRIDGE, declare
from .ros_common import StatusReporter, run, stamp_now


class BridgeNode(LoopNode):

    def __init__(self, **kwargs):
        super().__init__('bridge_node', **kwargs)
        loop, bridge, sim, geo, limits, arb = declare(self, BRIDGE)
        self.setup_loop(loop)
        self.core = BridgeCore(bridge, sim, geo, limits, arb.make(), time.monotonic())
        self.slow_every = max(1, round(loop.rate / loop.slow_rate))
        self.ticks = 0
        self.data_pub = self.create_publisher(BridgeData, qos.BRIDGE_DATA, qos.MAB_RT)
        self.state_pub = self.create_publisher(BridgeState, qos.BRIDGE_STATE, qos.MAB_RT)
        self.state_slow_pub = self.create_publisher(
            BridgeState, qos.BRIDGE_STATE_10HZ, qos.RELIABLE)
        self.reporter = StatusReporter(self, loop.heartbeat_rate)
        self.create_subscription(JointCommand, qos.JOINT_COMMAND, self.on_command, qos.MAB_RT)
        self.data = BridgeData()
        self.data.header.frame_id = 'imu'
        self.data.joint_name = list(bridge.joint_names)
        self.state = BridgeState()

    def on_command(self, msg):
        with self.lock:
            events = self.core.on_command(msg, time.monotonic())
        for level, text in events:
            self.reporter.report(level, text)

    def tick(self, now):
        with self.lock:
            events = self.core.step(now, self.period)
            self._fill()
        self.data_pub.publish(self.data)
        self.state_pub.publish(self.state)
        self.ticks += 1
        if self.ticks % self.slow_every == 0:
            self.state_slow_pub.publish(self.state)
        for level, text in events:
            self.reporter.report(level, text)

    def _fill(self):
        sim = self.core.sim
        d = self.data
        d.header.stamp = stamp_now()
        quat, gyro, accel = sim.imu()
        o = d.orientation
        o.x, o.y, o.z, o.w = quat
        v = d.angular_velocity
        v.x, v.y, v.z = gyro
        a = d.linear_acceleration
        a.x, a.y, a.z = accel
        # array.array of the right typecode skips the generated per-element checks.
        d.joint_position = array('f', sim.q.astype(np.float32).tobytes())
        d.joint_velocity = array('f', sim.dq.astype(np.float32).tobytes())
        d.joint_effort = array('f', sim.tau.astype(np.float32).tobytes())
        d.joint_temperature = array(
            'B', np.clip(np.rint(sim.temperature), 0, 255).astype(np.uint8).tobytes())
        d.joint_status = array('H', sim.status.astype(np.uint16).tobytes())
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
        s.ext2_t = float(np.mean(sim.temperature))
        s.drives_enabled = self.core.drives_enabled
        s.status = self.core.status_strings()
        s.up_time = int(time.monotonic() - self.core.start)


def main(args=None):
    run([BridgeNode], args)


if __name__ == '__main__':
    main()
