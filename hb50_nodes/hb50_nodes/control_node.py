# SPDX-License-Identifier: Apache-2.0
"""control_node: stands the robot up, trots after velocity_command, estimates the state."""

import time
from typing import Any, Dict, List, Optional, Tuple

from geometry_msgs.msg import Twist
from hb50_commons.msg import BridgeData, JointCommand, RobotState
from node_runtime.polled import PolledSubscription
import numpy as np
import numpy.typing as npt

from . import cdr, params, qos, topics
from .control_core import ControlConfig, ControlCore, JointTargets
from .layout import JOINT_NAMES, LEG_NAMES, NUM_JOINTS
from .loop_node import LoopNode
from .runtime import run, StatusReporter


class ControlNode(LoopNode):

    def __init__(self, **kwargs: Any) -> None:
        super().__init__('control_node', **kwargs)
        cfg = params.declare_control(self)
        self.setup_loop(cfg.loop)
        self.core = ControlCore(cfg.control, cfg.geo)
        self.cmd_pub = self.create_publisher(JointCommand, topics.JOINT_COMMAND,
                                             qos.MAB_RT)
        self.state_pub = self.create_publisher(RobotState, topics.ROBOT_STATE, qos.MAB_RT)
        self.state_slow_pub = self.create_publisher(
            RobotState, topics.ROBOT_STATE_10HZ, qos.RELIABLE)
        self.reporter = StatusReporter(self, cfg.loop.heartbeat_rate)
        # Taken by the tick (the newest sample), not by the executor. Raw: the CDR bytes are
        # decoded by cdr.py (cheaper than rclpy's message conversion).
        self.bridge_data: PolledSubscription[bytes] = self.poll_subscription(
            BridgeData, topics.BRIDGE_DATA, qos.MAB_RT, raw=True)
        self.create_subscription(Twist, topics.VELOCITY_COMMAND, self.on_velocity,
                                 qos.MAB_RT)
        # Compiled CDR layouts of the published messages (one struct.pack each per tick).
        self._cmd_layout = cdr.joint_command_layout('base_link', self.get_name(), JOINT_NAMES)
        self._state_layout = cdr.robot_state_layout('odom', LEG_NAMES)
        self._ki = cdr.f32_bytes([0.0] * NUM_JOINTS)
        self._brake = bytes(NUM_JOINTS)         # no brake
        self._joint_index: Optional[npt.NDArray[np.intp]] = None
        self._reorder = False                   # BridgeData's joints not in the vendor order
        self._decoder = cdr.BridgeDataDecoder()
        # `ros2 param set` of a run-time parameter (speed limits, timeouts, ramps): checked,
        # then applied; the others are read-only (refused).
        params.on_change(self, params.CONTROL, self.apply_parameters)

    def apply_parameters(self, changes: Dict[str, Any]) -> None:
        """Take run-time parameters just set (already checked) into the running core."""
        with self.lock:
            self.core.cfg = params.build(ControlConfig, changes, self.core.cfg)
        self.get_logger().info('parameters set: ' + ', '.join(
            f'{name}={value}' for name, value in sorted(changes.items())))

    def on_bridge_data(self, raw: bytes) -> None:
        try:
            msg = self._decoder.decode(raw)
        except cdr.CdrError:
            return      # only a raw publisher can send such bytes; ignored like wrong names
        if self._joint_index is None or len(msg.joint_name) != NUM_JOINTS:
            if sorted(msg.joint_name) != sorted(JOINT_NAMES):
                return
            # Tolerate any order on input; commands always go out in the vendor order.
            self._joint_index = np.array([list(msg.joint_name).index(n) for n in JOINT_NAMES])
            self._reorder = tuple(msg.joint_name) != JOINT_NAMES
            self._decoder.learn(msg)        # the next ones: one struct.unpack
        # Conversions outside the lock: the loop thread waits only for the assignment.
        q = np.asarray(msg.joint_position, dtype=float)
        dq = np.asarray(msg.joint_velocity, dtype=float)
        tau = np.asarray(msg.joint_effort, dtype=float)
        if self._reorder:
            idx = self._joint_index
            q, dq, tau = q[idx], dq[idx], tau[idx]
        with self.lock:
            self.core.on_bridge_data(q, dq, tau, msg.orientation, msg.angular_velocity)

    def on_velocity(self, msg: Any) -> None:
        lin, ang = msg.linear, msg.angular
        with self.lock:
            events = self.core.on_velocity_command(
                (lin.x, lin.y, lin.z), (ang.x, ang.y, ang.z), time.monotonic())
        for level, text in events:
            self.reporter.report(level, text)

    def tick(self, now: float) -> None:
        raw = self.bridge_data.take_newest()
        if raw is not None:
            self.on_bridge_data(raw)
        with self.lock:
            # Stamped when the tick samples its inputs, before its computation, so the stamp
            # period does not carry the step's run-time variations.
            stamp = self.stamps.now_ns()
            targets, events = self.core.step(now, self.period)
            if targets is not None:
                cmd, state = self._encode(stamp, targets)
        if targets is not None:
            # Pre-serialized bytes (cdr.py): rclpy publishes them without converting a message.
            self.cmd_pub.publish(cmd)
            self.state_pub.publish(state)
            if self.slow_sample_due(now):
                self.state_slow_pub.publish(state)
        for level, text in events:
            self.reporter.report(level, text)

    def _encode(self, stamp_ns: int, targets: JointTargets) -> Tuple[bytes, bytes]:
        """Return this tick's JointCommand and RobotState as CDR bytes."""
        sec, nanosec = divmod(stamp_ns, 1_000_000_000)
        f32 = cdr.f32_bytes
        cmd = self._cmd_layout.pack(sec, nanosec, f32(targets.kp), self._ki, f32(targets.kd),
                                    f32(targets.t_pos), f32(targets.t_vel), f32(targets.t_trq),
                                    self._brake)
        est, core = self.core.est, self.core
        values: List[float] = [sec, nanosec]
        for contact, p, v, f in zip(est.contact_flags, est.feet_rows, est.foot_vel_rows,
                                    est.force_rows):
            values.append(contact)
            values += p
            values += v
            values += f
        body_ang = est.body_ang
        values += est.position_xyz
        values += est.quat
        values += est.body_lin_xyz
        values += body_ang
        values += est.world_lin_xyz
        values += body_ang      # world_vel.angular: flat body, the yaw rate is the same
        values += (core.mode, core.motion_type, core.gait)
        return cmd, self._state_layout.pack(*values)


def main(args: Optional[List[str]] = None) -> int:
    """Run control_node until SIGINT/SIGTERM."""
    return run([ControlNode], args)


if __name__ == '__main__':
    main()
