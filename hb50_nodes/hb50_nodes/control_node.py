"""control_node: stands the robot up, trots after /hb50/velocity_command, estimates the state."""

import time
from array import array

import numpy as np
from geometry_msgs.msg import Twist
from hb50_commons.msg import BridgeData, JointCommand, LegState, RobotState

from . import qos
from .control_core import ControlCore
from .layout import JOINT_NAMES, LEG_NAMES, NUM_JOINTS
from .loop_node import LoopNode
from .params import CONTROL, declare
from .ros_common import StatusReporter, run, stamp_now


def _f32(values):
    return array('f', np.asarray(values, dtype=np.float32).tobytes())


def _set_vec(vec, values):
    x, y, z = values.tolist() if isinstance(values, np.ndarray) else values
    vec.x, vec.y, vec.z = float(x), float(y), float(z)


class ControlNode(LoopNode):

    def __init__(self, **kwargs):
        super().__init__('control_node', **kwargs)
        loop, control, geo = declare(self, CONTROL)
        self.setup_loop(loop)
        self.core = ControlCore(control, geo)
        self.slow_every = max(1, round(loop.rate / loop.slow_rate))
        self.ticks = 0
        self.cmd_pub = self.create_publisher(JointCommand, qos.JOINT_COMMAND, qos.MAB_RT)
        self.state_pub = self.create_publisher(RobotState, qos.ROBOT_STATE, qos.MAB_RT)
        self.state_slow_pub = self.create_publisher(
            RobotState, qos.ROBOT_STATE_10HZ, qos.RELIABLE)
        self.reporter = StatusReporter(self, loop.heartbeat_rate)
        self.create_subscription(BridgeData, qos.BRIDGE_DATA, self.on_bridge_data, qos.MAB_RT)
        self.create_subscription(Twist, qos.VELOCITY_COMMAND, self.on_velocity, qos.MAB_RT)
        self.cmd = JointCommand()
        self.cmd.header.frame_id = 'base_link'
        self.cmd.source_node = self.get_name()
        self.cmd.name = list(JOINT_NAMES)
        self.cmd.ki = _f32(np.zeros(NUM_JOINTS))
        self.cmd.brake = [False] * NUM_JOINTS
        self.state = RobotState()
        self.state.header.frame_id = 'odom'
        self.state.leg = [LegState(leg_name=name) for name in LEG_NAMES]
        self._joint_index = None

    def on_bridge_data(self, msg):
        if self._joint_index is None or len(msg.joint_name) != NUM_JOINTS:
            if sorted(msg.joint_name) != sorted(JOINT_NAMES):
                return
            # Tolerate any order on input; commands always go out in the vendor order.
            self._joint_index = np.array([list(msg.joint_name).index(n) for n in JOINT_NAMES])
        idx = self._joint_index
        o, w = msg.orientation, msg.angular_velocity
        with self.lock:
            self.core.on_bridge_data(
                np.asarray(msg.joint_position)[idx], np.asarray(msg.joint_velocity)[idx],
                np.asarray(msg.joint_effort)[idx], (o.x, o.y, o.z, o.w), (w.x, w.y, w.z))

    def on_velocity(self, msg):
        lin, ang = msg.linear, msg.angular
        with self.lock:
            events = self.core.on_velocity_command(
                (lin.x, lin.y, lin.z), (ang.x, ang.y, ang.z), time.monotonic())
        for level, text in events:
            self.reporter.report(level, text)

    def tick(self, now):
        with self.lock:
            targets, events = self.core.step(now, self.period)
            if targets is not None:
                c = self.cmd
                c.header.stamp = stamp_now()
                c.kp = _f32(targets.kp)
                c.kd = _f32(targets.kd)
                c.t_pos = _f32(targets.t_pos)
                c.t_vel = _f32(targets.t_vel)
                c.t_trq = _f32(targets.t_trq)
                self._fill_state(c.header.stamp)
        if targets is not None:
            self.cmd_pub.publish(self.cmd)
            self.state_pub.publish(self.state)
            self.ticks += 1
            if self.ticks % self.slow_every == 0:
                self.state_slow_pub.publish(self.state)
        for level, text in events:
            self.reporter.report(level, text)

    def _fill_state(self, stamp):
        est, core = self.core.est, self.core
        s = self.state
        s.header.stamp = stamp
        for i, leg in enumerate(s.leg):
            leg.contact = bool(est.contact[i])
            _set_vec(leg.foot_pos_body, est.feet[i])
            _set_vec(leg.foot_vel, est.foot_vel[i])
            _set_vec(leg.foot_force_est, est.force[i])
        _set_vec(s.pose.position, est.position)
        q = s.pose.orientation
        q.x, q.y, q.z, q.w = est.quat
        _set_vec(s.body_vel.linear, est.body_lin)
        _set_vec(s.body_vel.angular, est.body_ang)
        _set_vec(s.world_vel.linear, est.world_lin)
        _set_vec(s.world_vel.angular, est.body_ang)   # flat body: yaw rate is the same
        s.motion_mode = bytes([core.mode])
        s.motion_type = bytes([core.motion_type])
        s.motion_gait = bytes([core.gait])


def main(args=None):
    run([ControlNode], args)


if __name__ == '__main__':
    main()
