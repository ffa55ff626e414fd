"""live_view: a terminal dashboard of the HB50 stack, redrawn in place (Ctrl-C quits).

Shows per-topic receive rates, a few joint positions, robot mode, heartbeat states and the
last /hb50/status events. Parameters: refresh_rate (Hz, default 2), duration (s, 0 = forever).
"""

import collections
import sys
import time

import rclpy
from geometry_msgs.msg import Twist
from hb50_commons.msg import BridgeData, BridgeState, JointCommand, RobotState, Status
from rclpy.node import Node

from . import levels, qos
from .ros_common import spin_nodes

TYPES = {
    qos.BRIDGE_DATA: BridgeData, qos.BRIDGE_STATE: BridgeState,
    qos.BRIDGE_STATE_10HZ: BridgeState, qos.JOINT_COMMAND: JointCommand,
    qos.ROBOT_STATE: RobotState, qos.ROBOT_STATE_10HZ: RobotState,
    qos.STATUS: Status, qos.HEARTBEAT: Status, qos.VELOCITY_COMMAND: Twist,
}
MODES = {0: 'IDLE', 1: 'STAND_UP', 2: 'STAND', 3: 'LOCOMOTION', 4: 'DAMPING'}
GAITS = {0: 'IDLE', 1: 'STAND', 2: 'WALK', 3: 'RUN'}
SHOWN_JOINTS = (0, 1, 2, 3, 4, 5)
HEARTBEAT_STALE_AFTER = 1.5   # s, as the monitor's contract


class LiveView(Node):

    def __init__(self, out=sys.stdout):
        super().__init__('live_view')
        self.refresh = self.declare_parameter('refresh_rate', 2.0).value
        self.duration = self.declare_parameter('duration', 0.0).value
        self.out = out
        self.done = False
        self.start_time = time.monotonic()
        self.arrivals = {topic: collections.deque() for topic in TYPES}
        self.latest = {}
        self.beats = {}
        self.health = {}
        self.events = collections.deque(maxlen=8)
        for topic, msg_type in TYPES.items():
            self.create_subscription(msg_type, topic, self._callback(topic), qos.profile_for(topic))
        self.create_timer(1.0 / self.refresh, self.draw)

    def _callback(self, topic):
        def on_message(msg):
            now = time.monotonic()
            self.arrivals[topic].append(now)
            self.latest[topic] = msg
            if topic == qos.HEARTBEAT:
                self.beats[msg.reporting_node] = now
            elif topic == qos.STATUS:
                level = msg.level[0]
                if level in (levels.STALE, levels.OK) and 'heartbeat' in msg.status:
                    self.health[msg.reporting_node] = levels.NAMES[level]
                self.events.append(
                    f'{time.strftime("%H:%M:%S")} {levels.NAMES.get(level, level):5s} '
                    f'{msg.reporting_node}: {msg.status}')
        return on_message

    def _rate(self, topic, now):
        times = self.arrivals[topic]
        while times and now - times[0] > 2.0:
            times.popleft()
        return len(times) / 2.0

    def render(self):
        now = time.monotonic()
        lines = [f'HB50 live view   (Ctrl-C to stop)   {time.strftime("%H:%M:%S")}', '',
                 f'{"topic":28s} {"rate Hz":>9s}  {"QoS":9s}']
        for topic, (_, profile, nominal) in qos.TOPICS.items():
            expected = f'/{nominal:g}' if nominal else ''
            lines.append(f'{topic:28s} {self._rate(topic, now):9.1f}  {profile:9s}{expected}')
        lines.append('')
        data = self.latest.get(qos.BRIDGE_DATA)
        if data is not None:
            joints = '  '.join(f'{data.joint_name[i]}={data.joint_position[i]:+.3f}'
                               for i in SHOWN_JOINTS if i < len(data.joint_name))
            lines.append(f'joints (rad): {joints}')
        state = self.latest.get(qos.BRIDGE_STATE_10HZ)
        if state is not None:
            lines.append(f'drives_enabled={state.drives_enabled}  battery={state.battery:.2f}%  '
                         f'bus {state.bus_v:.1f} V {state.bus_i:.2f} A {state.bus_p:.0f} W  '
                         f'up {state.up_time} s')
        robot = self.latest.get(qos.ROBOT_STATE_10HZ)
        if robot is not None:
            v = robot.body_vel
            lines.append(f'mode={MODES.get(robot.motion_mode[0], "?")} '
                         f'gait={GAITS.get(robot.motion_gait[0], "?")}  '
                         f'body_vel=({v.linear.x:+.2f}, {v.linear.y:+.2f}) m/s '
                         f'yaw {v.angular.z:+.2f} rad/s  '
                         f'contacts={"".join("1" if leg.contact else "0" for leg in robot.leg)}')
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

    def draw(self):
        # Home the cursor and clear the screen, then print: the view refreshes in place.
        self.out.write('\033[H\033[2J' + self.render() + '\n')
        self.out.flush()
        if self.duration and time.monotonic() - self.start_time >= self.duration:
            self.done = True


def main(args=None):
    rclpy.init(args=args)
    view = LiveView()
    spin_nodes([view], done=lambda: view.done)


if __name__ == '__main__':
    main()
