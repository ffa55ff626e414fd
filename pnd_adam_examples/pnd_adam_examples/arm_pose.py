# SPDX-License-Identifier: Apache-2.0
"""
Example node: move Adam U's arms to a pose and open/close its hands.

Example a user would copy: read Adam's lowstate, bring both arms to a pose along a
minimum-jerk trajectory while waist and neck hold where they were, and open/close the
hands periodically. Only the generated pnd_adam message classes touch the robot; joint
order and limits come from pnd_adam_description. Arms and neck get `kp`/`kd`, the waist the
vendor's gains (`waist_kp`/`waist_kd`): the gains and `hand_period` can be changed while it
runs (`ros2 param set /adam_arm_pose kp 80.0`), the rest is read at start-up.

    ros2 run pnd_adam_examples adam_arm_pose --ros-args --params-file \
        $(ros2 pkg prefix pnd_adam_examples)/share/pnd_adam_examples/config/arm_pose.yaml
"""

from typing import Any, Dict, List, Mapping, Optional, Tuple

from node_runtime import runner
from node_runtime.parameters import declare, on_change, Parameter
from pnd_adam.msg import HandCmd, HandState, LowCmd, LowState, MotorCmd
from pnd_adam_description.gains import vendor_gains
from pnd_adam_description.joints import (JOINT_LIMITS, JOINT_NAMES, KD_MAX, KP_MAX, LEFT_ARM,
                                         NUM_JOINTS, RIGHT_ARM, WAIST)
from rclpy.executors import SingleThreadedExecutor
from rclpy.node import Node
from rclpy.qos import qos_profile_sensor_data

from .fastdds_profile import use_interop_profile
from .trajectory import min_jerk


_ARM_ORDER = 'shoulderPitch, shoulderRoll, shoulderYaw, elbow, wristYaw, wristPitch, wristRoll'
_WAIST_KP, _WAIST_KD = vendor_gains([JOINT_NAMES[i] for i in WAIST])

# Every parameter, its default and descriptor in one place (config/arm_pose.yaml mirrors
# them). The gains and hand_period can change at run time (ros2 param set); the pose, its
# duration and the command rate are read at start-up.
PARAMETERS = (
    Parameter('left_arm_pose', [-0.5, 0.3, 0.0, -1.0, 0.0, 0.0, 0.0],
              f'left arm target [rad]: {_ARM_ORDER}',
              constraints=f'{len(LEFT_ARM)} entries, each within its joint limits'),
    Parameter('right_arm_pose', [-0.5, -0.3, 0.0, -1.0, 0.0, 0.0, 0.0],
              f'right arm target [rad]: {_ARM_ORDER}',
              constraints=f'{len(RIGHT_ARM)} entries, each within its joint limits'),
    Parameter('move_duration', 3.0, 'duration of the minimum-jerk move to the pose [s]',
              value_range=(0.0, None)),
    Parameter('kp', 60.0, 'stiffness of the arm and neck joints [N*m/rad]', read_only=False,
              value_range=(0.0, KP_MAX)),
    Parameter('kd', 3.0, 'damping of the arm and neck joints [N*m*s/rad]', read_only=False,
              value_range=(0.0, KD_MAX)),
    Parameter('waist_kp', _WAIST_KP, 'stiffness of waistRoll, waistPitch, waistYaw [N*m/rad] '
              '(default: the vendor values; the upper body is an inverted pendulum)',
              read_only=False, value_range=(0.0, KP_MAX), constraints=f'{len(WAIST)} entries'),
    Parameter('waist_kd', _WAIST_KD, 'damping of waistRoll, waistPitch, waistYaw '
              '[N*m*s/rad] (default: the vendor values)', read_only=False,
              value_range=(0.0, KD_MAX), constraints=f'{len(WAIST)} entries'),
    Parameter('command_rate', 200.0, 'rate of lowcmd [Hz]', value_range=(0.0, 1000.0),
              constraints='> 0'),
    Parameter('hand_period', 2.0, 'time between opening and closing the hands [s]; 0 leaves '
              'the hands alone', read_only=False, value_range=(0.0, None)),
)


class ArmPose(Node):  # type: ignore[misc,unused-ignore]  # rclpy is Any to mypy here
    """Move the arms to the pose, hold waist and neck, open and close the hands."""

    def __init__(self, **kwargs: Any) -> None:
        super().__init__('adam_arm_pose', **kwargs)
        p = declare(self, PARAMETERS)
        if not p['command_rate'] > 0.0:
            raise ValueError(f"parameter 'command_rate': must be > 0, got {p['command_rate']}")
        self.goal_arms = self._checked_goal(p['left_arm_pose'], p['right_arm_pose'])
        self.duration = float(p['move_duration'])
        self.kp, self.kd = float(p['kp']), float(p['kd'])
        self.waist_kp, self.waist_kd = list(p['waist_kp']), list(p['waist_kd'])
        self.hand_period = float(p['hand_period'])
        if self._gain_refusal(p):
            raise ValueError(self._gain_refusal(p))
        on_change(self, PARAMETERS, self._apply, self._gain_refusal)

        self.lowstate: Optional[LowState] = None
        self.handstate: Optional[HandState] = None
        # joint positions when the first lowstate arrived
        self.start: Optional[List[float]] = None
        self.t_start: Any = None        # rclpy Time
        self.reached = False
        self.hand_open = True
        self.last_hand_switch: Any = None

        self.create_subscription(LowState, 'lowstate', self.on_lowstate,
                                 qos_profile_sensor_data)
        self.create_subscription(HandState, 'handstate', self.on_handstate,
                                 qos_profile_sensor_data)
        self.cmd_pub = self.create_publisher(LowCmd, 'lowcmd', 10)
        self.hand_pub = self.create_publisher(HandCmd, 'handcmd', 10)
        self.create_timer(1.0 / float(p['command_rate']), self.on_timer)
        self.get_logger().info('waiting for lowstate')

    @staticmethod
    def _checked_goal(left: List[float], right: List[float]) -> Dict[int, float]:
        goal = {}
        for name, pose, arm in (('left_arm_pose', left, LEFT_ARM),
                                ('right_arm_pose', right, RIGHT_ARM)):
            if len(pose) != len(arm):
                raise ValueError(f'parameter {name!r}: needs {len(arm)} values, got {len(pose)}')
            for idx, q in zip(arm, pose):
                lim = JOINT_LIMITS[idx]
                if not lim.q_min <= q <= lim.q_max:
                    raise ValueError(f'parameter {name!r}: {lim.name} target {q} outside '
                                     f'[{lim.q_min}, {lim.q_max}]')
                goal[idx] = float(q)
        return goal

    @staticmethod
    def _gain_refusal(changes: Mapping[str, Any]) -> Optional[str]:
        """Return why waist gains cannot be used (wrong length), or None."""
        for name in ('waist_kp', 'waist_kd'):
            if name in changes and len(changes[name]) != len(WAIST):
                return f'{name} needs {len(WAIST)} entries, got {len(changes[name])}'
        return None

    def _apply(self, changes: Mapping[str, Any]) -> None:
        """Take run-time changes over; the next lowcmd carries them."""
        self.kp = float(changes.get('kp', self.kp))
        self.kd = float(changes.get('kd', self.kd))
        self.waist_kp = list(changes.get('waist_kp', self.waist_kp))
        self.waist_kd = list(changes.get('waist_kd', self.waist_kd))
        self.hand_period = float(changes.get('hand_period', self.hand_period))
        self.get_logger().info('parameters changed: ' + ', '.join(
            f'{name}={value}' for name, value in changes.items()))

    def gains(self) -> Tuple[List[float], List[float]]:
        """Return the (kp, kd) per joint the next lowcmd carries, in joint order."""
        kp, kd = [self.kp] * NUM_JOINTS, [self.kd] * NUM_JOINTS
        for i, k, d in zip(WAIST, self.waist_kp, self.waist_kd):
            kp[i], kd[i] = float(k), float(d)
        return kp, kd

    def on_lowstate(self, msg: LowState) -> None:
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

    def on_handstate(self, msg: HandState) -> None:
        self.handstate = msg

    def on_timer(self) -> None:
        if self.start is None or self.lowstate is None:
            return
        now = self.get_clock().now()
        t = (now - self.t_start).nanoseconds * 1e-9
        goal = [self.goal_arms.get(i, self.start[i]) for i in range(NUM_JOINTS)]
        q, dq = min_jerk(self.start, goal, t, self.duration)
        kp, kd = self.gains()
        cmd = LowCmd(mode_pr=LowCmd.MODE_PR_SERIAL, motor_cmd=[
            MotorCmd(mode=MotorCmd.MODE_ENABLE, q=q[i], dq=dq[i], tau=0.0, kp=kp[i],
                     kd=kd[i], ki=0.0) for i in range(NUM_JOINTS)])
        self.cmd_pub.publish(cmd)
        if not self.reached and t >= self.duration:
            self.reached = True
            err = max(abs(m.q - g) for m, g in zip(self.lowstate.motor_state, goal))
            self.get_logger().info(f'pose reached, max joint error {err:.4f} rad')
        self._hands(now)

    def _hands(self, now: Any) -> None:
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


def main(args: Optional[List[str]] = None) -> int:
    """
    Run the node until SIGINT/SIGTERM (node_runtime.runner); return the exit status.

    0 on a stop, 2 with one stderr line for a bad parameter (nothing is sent), 1 for any
    other failure.
    """
    # Before rclpy.init(): Fast DDS reads its profile when the participant is created.
    profile = use_interop_profile()

    def arm_pose() -> ArmPose:
        node = ArmPose()
        node.get_logger().info(f'Fast DDS profile: {profile}')
        return node
    return runner.run_nodes([arm_pose], args, executor=SingleThreadedExecutor)


if __name__ == '__main__':
    raise SystemExit(main())
