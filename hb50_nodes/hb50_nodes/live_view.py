# SPDX-License-Identifier: Apache-2.0
"""
live_view: a terminal dashboard and keyboard teleop of the HB50 stack (Ctrl-C quits).

Shows per-topic receive rates, a few joint positions, robot mode, body attitude, heartbeat
states and the last /hb50/status events, redrawn in place. On a terminal the keys of
teleop.py set a normalised /hb50/velocity_command, published at `command_rate` (10 Hz) from
the first key on and shown on screen. Without a TTY (stdin not a terminal) it only displays.
Parameters: refresh_rate (Hz, default 2), duration (s, 0 = forever), command_rate (Hz).
"""

import collections
import math
import os
import select
import sys
import termios
import time
import tty
from typing import Any, Callable, Deque, Dict, List, Optional, TextIO, Tuple

from geometry_msgs.msg import Twist
from hb50_commons.msg import BridgeData, BridgeState, JointCommand, RobotState, Status
from rclpy.node import Node

from . import levels, params, qos, topics
from .runtime import run, steady_timer
from .teleop import HELP, parse_keys, Teleop

TYPES = {
    topics.BRIDGE_DATA: BridgeData, topics.BRIDGE_STATE: BridgeState,
    topics.BRIDGE_STATE_10HZ: BridgeState, topics.JOINT_COMMAND: JointCommand,
    topics.ROBOT_STATE: RobotState, topics.ROBOT_STATE_10HZ: RobotState,
    topics.STATUS: Status, topics.HEARTBEAT: Status, topics.VELOCITY_COMMAND: Twist,
}
MODES = {0: 'IDLE', 1: 'STAND_UP', 2: 'STAND', 3: 'LOCOMOTION', 4: 'DAMPING'}
GAITS = {0: 'IDLE', 1: 'STAND', 2: 'WALK', 3: 'RUN'}
SHOWN_JOINTS = (0, 1, 2, 3, 4, 5)
HEARTBEAT_STALE_AFTER = 1.5   # s, as the monitor's contract


class LiveView(Node):  # type: ignore[misc,unused-ignore]  # rclpy is Any to mypy here

    def __init__(self, out: TextIO = sys.stdout, **kwargs: Any) -> None:
        kwargs.setdefault('namespace', topics.DEFAULT_NAMESPACE)
        super().__init__('live_view', **kwargs)
        cfg = params.declare_view(self)
        self.refresh, self.duration = cfg.refresh_rate, cfg.duration
        self.command_rate = cfg.command_rate
        self.out = out
        self.done = False
        self.start_time = time.monotonic()
        self.arrivals: Dict[str, Deque[float]] = {topic: collections.deque() for topic in TYPES}
        self.latest: Dict[str, Any] = {}
        self.beats: Dict[str, float] = {}       # node: monotonic s of its last heartbeat
        self.health: Dict[str, str] = {}        # node: the monitor's last word (OK, STALE)
        self.events: Deque[str] = collections.deque(maxlen=8)
        for topic, msg_type in TYPES.items():
            self.create_subscription(msg_type, topic, self._callback(topic),
                                     qos.profile_for(topic))
        steady_timer(self, 1.0 / self.refresh, self.draw)
        self.teleop = Teleop()
        self.twist_pub = self.create_publisher(Twist, topics.VELOCITY_COMMAND, qos.MAB_RT)
        # (fd, saved termios attributes) while keys are read
        self._tty: Optional[Tuple[int, List[Any]]] = None
        steady_timer(self, 1.0 / self.command_rate, self.poll_keys)

    def start(self) -> None:
        """Read keys from stdin when it is a terminal (cbreak: Ctrl-C still signals)."""
        try:
            fd = sys.stdin.fileno()
            if os.isatty(fd):
                saved = termios.tcgetattr(fd)
                tty.setcbreak(fd)
                self._tty = (fd, saved)
        except (OSError, ValueError, termios.error):
            self._tty = None        # no usable terminal: display only

    def stop(self) -> None:
        """Give the terminal its settings back."""
        if self._tty is not None:
            fd, saved = self._tty
            self._tty = None
            try:
                termios.tcsetattr(fd, termios.TCSADRAIN, saved)
            except (OSError, termios.error):
                pass

    def poll_keys(self) -> None:
        """Apply the keys typed since the last call; publish the command once one was typed."""
        if self._tty is not None:
            fd = self._tty[0]
            try:
                while select.select([fd], [], [], 0.0)[0]:
                    data = os.read(fd, 64)
                    if not data:
                        break
                    for key in parse_keys(data):
                        self.teleop.press(key)
            except OSError:
                pass
        if self.teleop.active:
            msg = Twist()
            (msg.linear.x, msg.linear.y, msg.linear.z) = self.teleop.linear
            (msg.angular.x, msg.angular.y, msg.angular.z) = self.teleop.angular
            self.twist_pub.publish(msg)

    def _callback(self, topic: str) -> Callable[[Any], None]:
        def on_message(msg: Any) -> None:
            now = time.monotonic()
            self.arrivals[topic].append(now)
            self.latest[topic] = msg
            if topic == topics.HEARTBEAT:
                self.beats[msg.reporting_node] = now
            elif topic == topics.STATUS:
                level = msg.level[0]
                if level in (levels.STALE, levels.OK) and 'heartbeat' in msg.status:
                    self.health[msg.reporting_node] = levels.NAMES[level]
                self.events.append(
                    f'{time.strftime("%H:%M:%S")} {levels.NAMES.get(level, level):5s} '
                    f'{msg.reporting_node}: {msg.status}')
        return on_message

    def _rate(self, topic: str, now: float) -> float:
        times = self.arrivals[topic]
        while times and now - times[0] > 2.0:
            times.popleft()
        return len(times) / 2.0

    def render(self) -> str:
        now = time.monotonic()
        lines = [f'HB50 live view   (Ctrl-C to stop)   {time.strftime("%H:%M:%S")}', '',
                 f'{"topic":28s} {"rate Hz":>9s}  {"QoS":9s}']
        namespace = self.get_namespace()
        for topic, (_, profile, nominal) in topics.TOPICS.items():
            expected = f'/{nominal:g}' if nominal else ''
            name = topics.resolve(topic, namespace)
            lines.append(f'{name:28s} {self._rate(topic, now):9.1f}  {profile:9s}{expected}')
        lines.append('')
        data = self.latest.get(topics.BRIDGE_DATA)
        if data is not None:
            joints = '  '.join(f'{data.joint_name[i]}={data.joint_position[i]:+.3f}'
                               for i in SHOWN_JOINTS if i < len(data.joint_name))
            lines.append(f'joints (rad): {joints}')
        state = self.latest.get(topics.BRIDGE_STATE_10HZ)
        if state is not None:
            lines.append(f'drives_enabled={state.drives_enabled}  battery={state.battery:.2f}%  '
                         f'bus {state.bus_v:.1f} V {state.bus_i:.2f} A {state.bus_p:.0f} W  '
                         f'up {state.up_time} s')
        robot = self.latest.get(topics.ROBOT_STATE_10HZ)
        if robot is not None:
            v = robot.body_vel
            lines.append(f'mode={MODES.get(robot.motion_mode[0], "?")} '
                         f'gait={GAITS.get(robot.motion_gait[0], "?")}  '
                         f'body_vel=({v.linear.x:+.2f}, {v.linear.y:+.2f}) m/s '
                         f'yaw {v.angular.z:+.2f} rad/s  '
                         f'contacts={"".join("1" if leg.contact else "0" for leg in robot.leg)}')
        if robot is not None:
            o = robot.pose.orientation
            roll = math.atan2(2.0 * (o.w * o.x + o.y * o.z), 1.0 - 2.0 * (o.x * o.x + o.y * o.y))
            pitch = math.asin(max(-1.0, min(1.0, 2.0 * (o.w * o.y - o.z * o.x))))
            lines.append(f'body: height {robot.pose.position.z:.3f} m  roll {roll:+.3f} rad  '
                         f'pitch {pitch:+.3f} rad')
        lines.append('')
        lines.append(self.teleop.describe())
        lines.append(HELP if self._tty is not None else 'keys: none (stdin is not a terminal)')
        lines.append('')
        lines.append('heartbeats:')
        for node in sorted(set(self.beats) | set(self.health)):
            age = now - self.beats[node] if node in self.beats else float('inf')
            state = 'STALE' if age > HEARTBEAT_STALE_AFTER else 'OK'
            lines.append(f'  {node:20s} {state:5s} last {age:5.1f} s ago   '
                         f'monitor: {self.health.get(node, "-")}')
        lines.append('')
        lines.append('last status events:')
        lines.extend(f'  {e}' for e in self.events)
        return '\n'.join(lines)

    def draw(self) -> None:
        # Home the cursor and clear the screen, then print: the view refreshes in place.
        self.out.write('\033[H\033[2J' + self.render() + '\n')
        self.out.flush()
        if self.duration and time.monotonic() - self.start_time >= self.duration:
            self.done = True


def main(args: Optional[List[str]] = None) -> int:
    """Run the view until SIGINT/SIGTERM, `q` or its duration (node_runtime.runner)."""
    return run([LiveView], args)


if __name__ == '__main__':
    main()
