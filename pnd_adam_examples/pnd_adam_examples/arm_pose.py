# SPDX-License-Identifier: Apache-2.0
"""
Example node: move Adam U's arms to a pose and open/close its hands.

Example a user would copy: read Adam's lowstate, bring both arms to a pose along a
minimum-jerk trajectory while waist and neck hold where they were, and open/close the
hands periodically. Only the generated pnd_adam message classes touch the robot.

    ros2 run pnd_adam_examples adam_arm_pose --ros-args --params-file \
        $(ros2 pkg prefix pnd_adam_examples)/share/pnd_adam_examples/config/arm_pose.yaml
"""

from node_runtime import stop as stop_request
from pnd_adam.msg import HandCmd, HandState, LowCmd, LowState, MotorCmd
from pnd_adam_sim.joints import JOINT_LIMITS, LEFT_ARM, NUM_JOINTS, RIGHT_ARM
import rclpy
from rclpy.executors import SingleThreadedExecutor
from rclpy.node import Node
from rclpy.qos import qos_profile_sensor_data
from rclpy.signals import SignalHandlerOptions

from .fastdds_profile import use_interop_profile
from .trajectory import min_jerk


class ArmPose(Node):

    def __init__(self):
        super().__init__('adam_arm_pose')
        # Every parameter and its default, in one place (config/arm_pose.yaml mirrors them).
        self.declare_parameter('left_arm_pose', [-0.5, 0.3, 0.0, -1.0, 0.0, 0.0, 0.0])
        self.declare_parameter('right_arm_pose', [-0.5, -0.3, 0.0, -1.0, 0.0, 0.0, 0.0])
        self.declare_parameter('move_duration', 3.0)  # s
        self.declare_parameter('kp', 60.0)            # N*m/rad, every joint
        self.declare_parameter('kd', 3.0)             # N*m*s/rad
        self.declare_parameter('command_rate', 200.0)  # Hz of lowcmd
        self.declare_parameter('hand_period', 2.0)    # s between open/close; 0 = leave hands
        p = {n: self.get_parameter(n).value for n in (
            'left_arm_pose', 'right_arm_pose', 'move_duration', 'kp', 'kd', 'command_rate',
            'hand_period')}
        self.goal_arms = self._checked_goal(p['left_arm_pose'], p['right_arm_pose'])
        self.duration = float(p['move_duration'])
        self.kp, self.kd = float(p['kp']), float(p['kd'])
        self.hand_period = float(p['hand_period'])

        self.lowstate = None
        self.handstate = None
        self.start = None       # joint positions when the first lowstate arrived
        self.t_start = None
        self.reached = False
        self.hand_open = True
        self.last_hand_switch = None

        self.create_subscription(LowState, 'lowstate', self.on_lowstate,
                                 qos_profile_sensor_data)
        self.create_subscription(HandState, 'handstate', self.on_handstate,
                                 qos_profile_sensor_data)
        self.cmd_pub = self.create_publisher(LowCmd, 'lowcmd', 10)
        self.hand_pub = self.create_publisher(HandCmd, 'handcmd', 10)
        self.create_timer(1.0 / float(p['command_rate']), self.on_timer)
        self.get_logger().info('waiting for lowstate')

    @staticmethod
    def _checked_goal(left, right):
        if len(left) != len(LEFT_ARM) or len(right) != len(RIGHT_ARM):
            raise ValueError(f'arm poses need {len(LEFT_ARM)} values each, got '
                             f'{len(left)} and {len(right)}')
        goal = {}
        for idx, q in zip(LEFT_ARM + RIGHT_ARM, list(left) + list(right)):
            lim = JOINT_LIMITS[idx]
            if not lim.q_min <= q <= lim.q_max:
                raise ValueError(f'{lim.name} target {q} outside [{lim.q_min}, {lim.q_max}]')
            goal[idx] = float(q)
        return goal

    def on_lowstate(self, msg):
        self.lowstate = msg
        if self.start is None:
            if len(msg.motor_state) != NUM_JOINTS:
                self.get_logger().error(
                    f'lowstate has {len(msg.motor_state)} motors, this example is for Adam U '
                    f'({NUM_JOINTS})', throttle_duration_sec=5.0)
                return
            self.start = [m.q for m in msg.motor_state]
            self.t_start = self.get_clock().now()
            self.get_logger().info(
                f'lowstate received (tick {msg.tick}, battery {msg.battery_data.voltage:.1f} V '
                f'{msg.battery_data.status}); moving arms over {self.duration:.1f} s')

    def on_handstate(self, msg):
        self.handstate = msg

    def on_timer(self):
        if self.start is None:
            return
        now = self.get_clock().now()
        t = (now - self.t_start).nanoseconds * 1e-9
        goal = [self.goal_arms.get(i, self.start[i]) for i in range(NUM_JOINTS)]
        q, dq = min_jerk(self.start, goal, t, self.duration)
        cmd = LowCmd(mode_pr=LowCmd.MODE_PR_SERIAL, motor_cmd=[
            MotorCmd(mode=MotorCmd.MODE_ENABLE, q=q[i], dq=dq[i], tau=0.0, kp=self.kp,
                     kd=self.kd, ki=0.0) for i in range(NUM_JOINTS)])
        self.cmd_pub.publish(cmd)
        if not self.reached and t >= self.duration:
            self.reached = True
            err = max(abs(m.q - g) for m, g in zip(self.lowstate.motor_state, goal))
            self.get_logger().info(f'pose reached, max joint error {err:.4f} rad')
        self._hands(now)

    def _hands(self, now):
        if self.hand_period <= 0.0:
            return
        if (self.last_hand_switch is not None
                and (now - self.last_hand_switch).nanoseconds * 1e-9 < self.hand_period):
            return
        self.last_hand_switch = now
        self.hand_open = not self.hand_open
        target = HandCmd.POSITION_OPEN if self.hand_open else HandCmd.POSITION_CLOSED
        self.hand_pub.publish(HandCmd(position=[target] * 12))
        was = [int(v) for v in self.handstate.position] if self.handstate is not None else None
        self.get_logger().info(('opening' if self.hand_open else 'closing')
                               + f' hands (measured before: {was})')


def main(args=None, stop=None):
    """
    Run the node until SIGINT/SIGTERM.

    Signals only set a flag (node_runtime.stop; rclpy's own handlers are off): rclpy's handlers
    would shut the context down from the signal, under a timer callback that is still
    publishing or a create_publisher still running, which then fails with "publisher's
    context is invalid". Here the main thread leaves the spin loop between two callbacks
    and tears down in order: node first, then the context.
    """
    stop = stop_request.watch(stop)
    # Before rclpy.init(): Fast DDS reads its profile when the participant is created.
    profile = use_interop_profile()
    if stop.is_set():
        return 0
    rclpy.init(args=args, signal_handler_options=SignalHandlerOptions.NO)
    node = None
    executor = SingleThreadedExecutor()
    try:
        if stop.is_set():
            return 0
        node = ArmPose()
        executor.add_node(node)
        node.get_logger().info(f'Fast DDS profile: {profile}')
        while not stop.is_set():
            # A signal's flag is seen within one timeout even when nothing else happens.
            executor.spin_once(timeout_sec=0.1)
    finally:
        executor.shutdown()
        if node is not None:
            node.destroy_node()
        rclpy.try_shutdown()
    return 0


if __name__ == '__main__':
    main()
