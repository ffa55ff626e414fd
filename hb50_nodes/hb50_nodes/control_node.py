# SPDX-License-Identifier: Apache-2.0
"""control_node: stands the robot up, trots after /hb50/velocity_command, estimates the state."""

from array import array
import time

from geometry_msgs.msg import Twist
from hb50_commons.msg import BridgeData, JointCommand, LegState, RobotState
import numpy as np

from . import qos
from .control_core import ControlCore
from .layout import JOINT_NAMES, LEG_NAMES, NUM_JOINTS
from .loop_node import LoopNode
from .params import CONTROL, declare
from .ros_common import run, set_stamp, StatusReporter


def _f32_buffer(n):
    """Return a zeroed float32[n] array.array: what rclpy converts fastest."""
    return array('f', bytes(4 * n))


def _set_vec(vec, values):
    x, y, z = values.tolist() if isinstance(values, np.ndarray) else values
    vec.x, vec.y, vec.z = float(x), float(y), float(z)


class ControlNode(LoopNode):

    def __init__(self, **kwargs):
        super().__init__('control_node', **kwargs)
        loop, control, geo = declare(self, CONTROL)
        self.setup_loop(loop)
        self.core = ControlCore(control, geo)
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
        # Built once, refilled in place every tick (no per-tick message or array allocation).
        self.cmd.ki = _f32_buffer(NUM_JOINTS)
        self._views = []
        for field in ('kp', 'kd', 't_pos', 't_vel', 't_trq'):
            setattr(self.cmd, field, _f32_buffer(NUM_JOINTS))
            # The setter copies: view the message's own array, not the one passed in.
            self._views.append(np.frombuffer(getattr(self.cmd, field), np.float32))
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
        # Conversions outside the lock: the loop thread waits only for the assignment.
        q, dq = np.asarray(msg.joint_position)[idx], np.asarray(msg.joint_velocity)[idx]
        tau = np.asarray(msg.joint_effort)[idx]
        quat, gyro = (o.x, o.y, o.z, o.w), (w.x, w.y, w.z)
        with self.lock:
            self.core.on_bridge_data(q, dq, tau, quat, gyro)

    def on_velocity(self, msg):
        lin, ang = msg.linear, msg.angular
        with self.lock:
            events = self.core.on_velocity_command(
                (lin.x, lin.y, lin.z), (ang.x, ang.y, ang.z), time.monotonic())
        for level, text in events:
            self.reporter.report(level, text)

    def tick(self, now):
        with self.lock:
            # Stamped when the tick samples its inputs, before its computation, so the stamp
            # period does not carry the step's run-time variations.
            stamp = time.time_ns()
            targets, events = self.core.step(now, self.period)
            if targets is not None:
                c = self.cmd
                set_stamp(c.header.stamp, stamp)
                kp, kd, t_pos, t_vel, t_trq = self._views
                kp[:] = targets.kp
                kd[:] = targets.kd
                t_pos[:] = targets.t_pos
                t_vel[:] = targets.t_vel
                t_trq[:] = targets.t_trq
                self._fill_state(stamp)
        if targets is not None:
            self.cmd_pub.publish(self.cmd)
            self.state_pub.publish(self.state)
            if self.slow_sample_due():
                self.state_slow_pub.publish(self.state)
        for level, text in events:
            self.reporter.report(level, text)

    def _fill_state(self, stamp_ns):
        est, core = self.core.est, self.core
        s = self.state
        set_stamp(s.header.stamp, stamp_ns)
        # One tolist() per array instead of one per leg: plain floats are what rclpy stores.
        for leg, contact, p, v, f in zip(s.leg, est.contact.tolist(), est.feet.tolist(),
                                         est.foot_vel.tolist(), est.force.tolist()):
            leg.contact = contact
            _set_vec(leg.foot_pos_body, p)
            _set_vec(leg.foot_vel, v)
            _set_vec(leg.foot_force_est, f)
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
    """Run control_node until SIGINT/SIGTERM."""
    return run([ControlNode], args)


if __name__ == '__main__':
    main()
